//! The console on a fleet whose users run exec plugins, in tmux as a person sees it:
//! nothing a plugin writes on stderr reaches the screen; a failing plugin's message is on
//! its cluster's page; a hanging plugin is stopped at the timeout and only its clusters
//! say so; a plugin that needs a person is logged in from the console, which then comes
//! back where it was with the cluster synced.

use crate::support::credentials::exec_fleet;
use crate::support::tmux::{Tmux, require_tmux};

const CHATTER: &str = "plugin chatter: refreshing the SSO cache";

/// No capture of the console has the plugins' chatter anywhere but where the console
/// itself quotes it, on a cluster's page (`fleetdeck said: …`): never painted over it.
fn clean(console: &Tmux) -> String {
    let screen = console.capture();
    for line in screen.lines().filter(|l| l.contains("plugin chatter")) {
        assert!(
            line.contains("said: plugin chatter"),
            "a plugin's stderr reached the console:\n{screen}"
        );
    }
    screen
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn plugins_stay_off_the_screen_and_a_login_comes_back_where_it_was() {
    require_tmux();
    let dir = tempfile::tempdir().unwrap();
    let served = exec_fleet(
        dir.path(),
        "demo",
        &format!(r#"{{"delaySeconds": 0.3, "stderr": ["{CHATTER}"]}}"#),
        None,
        false,
    )
    .await;
    served.split_off(
        "failing",
        &["prod-use1-01"],
        &dir.path().join("failing"),
        &format!(
            r#"{{"stderr": ["{CHATTER}"], "fail": "error: profile ops: the token endpoint answered 500"}}"#
        ),
    );
    served.split_off(
        "hanging",
        &["prod-use1-02"],
        &dir.path().join("hanging"),
        &format!(r#"{{"stderr": ["{CHATTER}"], "hang": true}}"#),
    );
    served.split_off(
        "sso",
        &["prod-use1-03"],
        &dir.path().join("sso"),
        r#"{"stderr": ["sso plugin: opening a session"], "loginCode": "4711"}"#,
    );
    let config = dir.path().join("config.toml");
    std::fs::write(&config, "[credentials]\nexec_timeout = \"2s\"\n").unwrap();
    let (ledger, kubeconfig, journal) = (
        served.ledger.display().to_string(),
        served.kubeconfig.display().to_string(),
        dir.path().join("journal.sqlite").display().to_string(),
    );
    let config = config.display().to_string();
    let console = tokio::task::spawn_blocking(move || {
        let console = Tmux::start(
            "credentials",
            &[
                "--config",
                &config,
                "--ledger",
                &ledger,
                "--kubeconfig",
                &kubeconfig,
                "--journal",
                &journal,
                "--as",
                "tester@e2e",
            ],
            &[],
        );
        // The failing, the hanging (stopped at 2 s) and the one that needs a login: the
        // three, and only they, read Credentials.
        console.wait_for("3 Credentials", 60);
        console.wait_for("34 Synced", 60);
        clean(&console);

        console.send(&[":"]);
        console.send_text("cluster prod-use1-01");
        console.send(&["Enter"]);
        let page = console.wait_for("the token endpoint answered 500", 20);
        assert!(page.contains("credentials, plugin failed"), "{page}");
        clean(&console);

        console.send(&[":"]);
        console.send_text("cluster prod-use1-02");
        console.send(&["Enter"]);
        let page = console.wait_for("did not answer within 2s and was stopped", 20);
        assert!(page.contains("plugin timed out"), "{page}");
        clean(&console);

        console.send(&[":"]);
        console.send_text("cluster prod-use1-03");
        console.send(&["Enter"]);
        let page = console.wait_for("credentials, login needed", 20);
        assert!(
            page.contains("press i, or type :login prod-use1-03"),
            "{page}"
        );
        clean(&console);

        // The login: the console gives the terminal to the plugin, which asks the person.
        console.send(&["i"]);
        console.wait_for("Enter the one-time code", 20);
        assert!(
            !console.alternate_screen_on(),
            "the console left its screen"
        );
        console.send_text("4711");
        console.send(&["Enter"]);
        let back = console.wait_for("Logged in for prod-use1-03", 20);
        assert!(console.alternate_screen_on(), "the console is back");
        assert!(
            back.contains("ledger › cluster prod-use1-03"),
            "where it was:\n{back}"
        );
        console.wait_for("Synced, last heard", 30);
        console.wait_for("2 Credentials", 30);
        clean(&console);
        console.send(&["q"]);
        console
    })
    .await
    .unwrap();
    drop(console);
    served.server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_command_at_a_terminal_lets_the_plugin_ask_and_no_interactive_never_does() {
    require_tmux();
    let dir = tempfile::tempdir().unwrap();
    let served = exec_fleet(dir.path(), "small", r#"{"loginCode": "2468"}"#, None, false).await;
    let (ledger, kubeconfig, journal) = (
        served.ledger.display().to_string(),
        served.kubeconfig.display().to_string(),
        dir.path().join("journal.sqlite").display().to_string(),
    );
    let console = tokio::task::spawn_blocking(move || {
        let flags = [
            "--ledger",
            ledger.as_str(),
            "--kubeconfig",
            kubeconfig.as_str(),
            "--journal",
            journal.as_str(),
        ];
        // --no-interactive: the login is named, never asked for.
        let mut args: Vec<&str> = flags.to_vec();
        args.extend(["--no-interactive", "snapshot", "--wait-synced", "10s"]);
        let refused = Tmux::start("login-refused", &args, &[]);
        let screen = refused.wait_for("exit=", 30);
        assert!(screen.contains("credentials (login needed)"), "{screen}");
        assert!(!screen.contains("one-time code"), "{screen}");
        drop(refused);
        // At a terminal, as kubectl does: the plugin asks, once, and the fleet syncs.
        let mut args: Vec<&str> = flags.to_vec();
        args.extend(["snapshot", "--wait-synced", "30s"]);
        let asked = Tmux::start("login-asked", &args, &[]);
        asked.wait_for("Enter the one-time code", 30);
        asked.send_text("2468");
        asked.send(&["Enter"]);
        let screen = asked.wait_for("exit=", 60);
        assert!(screen.contains("3 clusters: 3 Synced"), "{screen}");
        assert_eq!(
            screen.matches("Enter the one-time code").count(),
            1,
            "one prompt for the one credential:\n{screen}"
        );
        asked
    })
    .await
    .unwrap();
    drop(console);
    served.server.shutdown().await;
}
