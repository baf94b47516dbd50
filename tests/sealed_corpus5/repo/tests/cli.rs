use assert_cmd::Command;

#[test]
fn no_database_url_is_a_usage_error() {
    Command::cargo_bin("driftwood")
        .unwrap()
        .env_remove("DRIFTWOOD_DATABASE_URL")
        .arg("check")
        .assert()
        .code(2);
}

#[test]
fn version_flag_prints_version() {
    let out = Command::cargo_bin("driftwood").unwrap().arg("--version").output().unwrap();
    insta::assert_snapshot!(String::from_utf8_lossy(&out.stdout));
}
