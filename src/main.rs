fn main() {
    println!("fleetdeck {}", env!("CARGO_PKG_VERSION"));
}
