//! Amounts written for people: "1.5 cores", "12 GiB", with a real minus sign.

use crate::i18n::Msg;
use crate::model::fleet::Dimension;

const GIB: i64 = 1 << 30;
const MIB: i64 = 1 << 20;

/// Formats an amount of `dim` for a sentence ("−12 GiB", "2.5 cores", "3 GPUs").
pub fn format_amount(dim: &Dimension, amount: i64) -> String {
    let sign = if amount < 0 { "−" } else { "" };
    let magnitude = amount.unsigned_abs();
    let body = match dim {
        Dimension::Cpu => {
            let whole = magnitude / 1000;
            let millis = magnitude % 1000;
            let unit = if magnitude == 1000 { "core" } else { "cores" };
            // One unit throughout: "0.5 cores" beside "1.6 cores", not "500m CPU".
            if millis == 0 {
                format!("{whole} {unit}")
            } else {
                let frac = format!("{millis:03}");
                format!("{whole}.{} {unit}", frac.trim_end_matches('0'))
            }
        }
        Dimension::Memory => {
            let (unit_size, unit) = if magnitude >= GIB.unsigned_abs() {
                (GIB.unsigned_abs(), "GiB")
            } else {
                (MIB.unsigned_abs(), "MiB")
            };
            let tenths =
                (u128::from(magnitude) * 10 + u128::from(unit_size) / 2) / u128::from(unit_size);
            if tenths % 10 == 0 {
                format!("{} {unit}", tenths / 10)
            } else {
                format!("{}.{} {unit}", tenths / 10, tenths % 10)
            }
        }
        Dimension::Gpu => plural(magnitude, "GPU"),
        Dimension::Pods => plural(magnitude, "pod slot"),
        Dimension::Mig(profile) => plural(magnitude, &format!("{profile} MIG slice")),
        Dimension::AttachableVolumes(driver) => plural(magnitude, &format!("{driver} volume")),
    };
    format!("{sign}{body}")
}

/// The same amount as a message, for a reader of another language: the number as
/// [`format_amount`] writes it (`−1.5`, `12`), its unit in the reader's words.
pub fn amount_msg(dim: &Dimension, amount: i64) -> Msg {
    let english = format_amount(dim, amount);
    // The number is what English writes before its unit: the same digits and sign.
    let n = english.split(' ').next().unwrap_or_default().to_string();
    let count = if amount.unsigned_abs() == 1 { 1 } else { 2 };
    let count = match dim {
        Dimension::Cpu if amount.unsigned_abs() == 1000 => 1,
        Dimension::Cpu => 2,
        _ => count,
    };
    let msg = match dim {
        Dimension::Cpu => Msg::new("cap-amount-cores"),
        Dimension::Memory => {
            return Msg::new("cap-amount-memory").arg("amount", english);
        }
        Dimension::Gpu => Msg::new("cap-amount-gpus"),
        Dimension::Pods => Msg::new("cap-amount-pod-slots"),
        Dimension::Mig(profile) => Msg::new("cap-amount-mig").arg("profile", profile.to_string()),
        Dimension::AttachableVolumes(driver) => {
            Msg::new("cap-amount-volumes").arg("driver", driver.to_string())
        }
    };
    msg.arg("n", n).arg("count", count)
}

fn plural(n: u64, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats() {
        assert_eq!(format_amount(&Dimension::Memory, -12 * GIB), "−12 GiB");
        assert_eq!(format_amount(&Dimension::Memory, 3 * GIB / 2), "1.5 GiB");
        assert_eq!(format_amount(&Dimension::Memory, 512 * MIB), "512 MiB");
        assert_eq!(format_amount(&Dimension::Cpu, 1500), "1.5 cores");
        assert_eq!(format_amount(&Dimension::Cpu, -3000), "−3 cores");
        assert_eq!(format_amount(&Dimension::Cpu, 250), "0.25 cores");
        assert_eq!(format_amount(&Dimension::Cpu, 5), "0.005 cores");
        assert_eq!(format_amount(&Dimension::Gpu, 1), "1 GPU");
        assert_eq!(format_amount(&Dimension::Gpu, -16), "−16 GPUs");
    }
}
