//! `searchlab datagen` as a user runs it: the same file for any number of jobs, a killed or
//! extended run that resumes to the uninterrupted file, a run of another configuration refused
//! on the same file.

use std::path::{Path, PathBuf};
use std::process::Command;

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("searchlab-nnue-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn datagen(out: &Path, extra: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_searchlab"))
        .args(["datagen", "--out", out.to_str().unwrap(), "--nodes", "600"])
        .args(["--openings", "suites/openings.epd", "--quiet"])
        .args(extra)
        .output()
        .unwrap()
}

fn ok(output: std::process::Output) -> String {
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout).into_owned()
}

#[test]
fn datagen_is_deterministic_resumable_and_extendable() {
    let dir = scratch("datagen");
    let one = dir.join("one.bin");
    let two = dir.join("two.bin");
    let said = ok(datagen(&one, &["--games", "6", "--jobs", "1"]));
    assert!(said.contains("positions from 6 games"), "{said}");
    ok(datagen(&two, &["--games", "6", "--jobs", "2"]));
    let data = std::fs::read(&one).unwrap();
    assert!(!data.is_empty() && data.len().is_multiple_of(32));
    assert_eq!(data, std::fs::read(&two).unwrap(), "jobs change nothing");
    // Three games, then a half-written record as a killed run leaves, then extended to six:
    // the file of the run that played six at once.
    let grown = dir.join("grown.bin");
    ok(datagen(&grown, &["--games", "3"]));
    let mut partial = std::fs::read(&grown).unwrap();
    partial.extend_from_slice(&[7; 13]);
    std::fs::write(&grown, partial).unwrap();
    ok(datagen(&grown, &["--games", "6"]));
    assert_eq!(data, std::fs::read(&grown).unwrap());
    let provenance = std::fs::read_to_string(dir.join("grown.bin.json")).unwrap();
    assert!(provenance.contains("\"games_done\": 6"), "{provenance}");
    // Another configuration on the same file is refused with the reason.
    let other = datagen(&grown, &["--games", "6", "--heuristics", "classic"]);
    assert!(!other.status.success());
    assert!(String::from_utf8_lossy(&other.stderr).contains("holds another run"));
    std::fs::remove_dir_all(&dir).ok();
}

fn train(data: &Path, out: &Path, extra: &[&str]) -> std::process::Output {
    train_at("0.01", data, out, extra)
}

/// `train` at learning rate `lr`.
fn train_at(lr: &str, data: &Path, out: &Path, extra: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_searchlab"))
        .args(["train", "--data", data.to_str().unwrap()])
        .args(["--out", out.to_str().unwrap(), "--quiet"])
        .args(["--epochs", "3", "--batch", "256", "--lr", lr])
        .args(extra)
        .output()
        .unwrap()
}

#[test]
fn training_is_the_same_for_any_thread_count_and_lowers_the_loss() {
    let dir = scratch("train");
    let data = dir.join("data.bin");
    ok(datagen(&data, &["--games", "16"]));
    let (one, two) = (dir.join("one.nnue"), dir.join("two.nnue"));
    ok(train(&data, &one, &["--threads", "1"]));
    ok(train(&data, &two, &["--threads", "2"]));
    let net = std::fs::read(&one).unwrap();
    assert_eq!(net, std::fs::read(&two).unwrap(), "threads change nothing");
    assert!(searchlab::engine::nnue::Network::from_bytes(&net).is_ok());
    let log: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(dir.join("one.nnue.train/train.json")).unwrap(),
    )
    .unwrap();
    let epochs = log["epochs"].as_array().unwrap();
    assert_eq!(epochs.len(), 3);
    let loss = |i: usize| epochs[i]["train_loss"].as_f64().unwrap();
    assert!(loss(2) < loss(0), "{} -> {}", loss(0), loss(2));
    assert!(dir.join("one.nnue.train/loss.svg").is_file());
    // The same command again resumes a finished run: nothing to do, the same network.
    ok(train(&data, &one, &["--threads", "2"]));
    assert_eq!(net, std::fs::read(&one).unwrap());
    // Other settings on the same checkpoint are refused; a cut data file is refused by name.
    let other = train(&data, &one, &["--lambda", "0.5"]);
    assert!(String::from_utf8_lossy(&other.stderr).contains("other data or settings"));
    let mut cut = std::fs::read(&data).unwrap();
    cut.pop();
    std::fs::write(dir.join("cut.bin"), cut).unwrap();
    let refused = train(&dir.join("cut.bin"), &dir.join("cut.nnue"), &[]);
    assert!(String::from_utf8_lossy(&refused.stderr).contains("cut.bin"));
    std::fs::remove_dir_all(&dir).ok();
}

/// `train --init NET` starts from that network: after the first epoch its validation loss is
/// well below a random start's on data the network played, both at the small learning rate a
/// network is trained further with (at the other tests' 0.01, a start wanders far from itself
/// within the first epoch on so few positions, and whether it stays below a random start's
/// depended on the games), the log names the start's checksum, and a file that is not a network
/// is refused by name. The loss is of the search's scores alone (λ 0, generation 9's target): 32
/// games' results are noise no start can foretell, and with them in the target the margin
/// depended on how the shipped network was trained (λ 0.25 put generation 9 at 0.70 of a random
/// start, on the line).
#[test]
fn training_from_a_network_starts_where_it_is() {
    use searchlab::engine::nnue::{checksum, embedded_bytes};
    let dir = scratch("init");
    let data = dir.join("data.bin");
    ok(datagen(
        &data,
        &["--games", "32", "--heuristics", "modern,eval=nnue"],
    ));
    let start = dir.join("start.nnue");
    std::fs::write(&start, embedded_bytes()).unwrap();
    let settings = ["--output-buckets", "8", "--lambda", "0"];
    let (fresh, tuned) = (dir.join("fresh.nnue"), dir.join("tuned.nnue"));
    ok(train_at("0.0003", &data, &fresh, &settings));
    let mut init = settings.to_vec();
    init.extend(["--init", start.to_str().unwrap()]);
    ok(train_at("0.0003", &data, &tuned, &init));
    let log = |net: &Path| -> serde_json::Value {
        let mut name = net.as_os_str().to_owned();
        name.push(".train/train.json");
        serde_json::from_str(&std::fs::read_to_string(name).unwrap()).unwrap()
    };
    let loss = |net: &Path| log(net)["epochs"][0]["validation_loss"].as_f64().unwrap();
    assert!(
        loss(&tuned) < 0.7 * loss(&fresh),
        "{} against {}",
        loss(&tuned),
        loss(&fresh)
    );
    assert_eq!(
        log(&tuned)["settings"]["init"].as_str().unwrap(),
        format!("{:016x}", checksum(embedded_bytes()))
    );
    assert!(log(&fresh)["settings"]["init"].is_null());
    let refused = train(&data, &dir.join("x.nnue"), &["--init", "Cargo.toml"]);
    let said = String::from_utf8_lossy(&refused.stderr);
    assert!(!refused.status.success());
    assert!(said.contains("--init Cargo.toml"), "{said}");
    std::fs::remove_dir_all(&dir).ok();
}

/// `--net FILE` replaces the embedded network for the whole process: a network of zeros makes
/// every score of its data 0 (mate scores are left out), the provenance records its checksum,
/// and a file that is not a network is refused by name before anything runs.
#[test]
fn a_net_given_with_net_plays_instead_of_the_embedded_one_and_is_recorded() {
    use searchlab::engine::nnue::{Network, checksum};
    let dir = scratch("net");
    let zero = dir.join("zero.nnue");
    let bytes = Network::zeroed().to_bytes();
    std::fs::write(&zero, &bytes).unwrap();
    let scores = |data: &Path| -> Vec<i16> {
        std::fs::read(data)
            .unwrap()
            .chunks(32)
            .map(|r| i16::from_le_bytes([r[24], r[25]]))
            .collect()
    };
    let nnue = ["--games", "2", "--heuristics", "modern,eval=nnue"];
    let embedded = dir.join("embedded.bin");
    ok(datagen(&embedded, &nnue));
    assert!(scores(&embedded).iter().any(|&s| s != 0));
    let zeroed = dir.join("zeroed.bin");
    let mut args = vec!["--net", zero.to_str().unwrap()];
    args.extend(nnue);
    ok(datagen(&zeroed, &args));
    let played = scores(&zeroed);
    assert!(
        !played.is_empty() && played.iter().all(|&s| s == 0),
        "{played:?}"
    );
    let provenance = std::fs::read_to_string(dir.join("zeroed.bin.json")).unwrap();
    let sum = format!("{:016x}", checksum(&bytes));
    assert!(
        provenance.contains(&format!("\"net\": \"{sum}\"")),
        "{provenance}"
    );
    let not_a_net = datagen(&dir.join("x.bin"), &["--net", "Cargo.toml", "--games", "1"]);
    assert!(!not_a_net.status.success());
    let said = String::from_utf8_lossy(&not_a_net.stderr);
    assert!(
        said.contains("--net Cargo.toml") && said.contains("not a searchlab network"),
        "{said}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// One writer per data file and per training run; data changed after it was written is not
/// extended; damaged records, a diverging learning rate and no validation are named, never a
/// panic, a useless network or a NaN printed as a loss.
#[test]
fn data_and_training_faults_are_named() {
    let dir = scratch("faults");
    let data = dir.join("data.bin");
    ok(datagen(&data, &["--games", "4"]));
    // A second datagen on the same --out while the first runs is refused.
    let busy = dir.join("busy.bin");
    let mut first = Command::new(env!("CARGO_BIN_EXE_searchlab"))
        .args(["datagen", "--out", busy.to_str().unwrap(), "--nodes", "600"])
        .args([
            "--openings",
            "suites/openings.epd",
            "--quiet",
            "--games",
            "100000",
        ])
        .args(["--jobs", "1"])
        .spawn()
        .unwrap();
    while !busy.with_extension("bin.json").exists() {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let second = datagen(&busy, &["--games", "100000", "--jobs", "1"]);
    first.kill().unwrap();
    first.wait().unwrap();
    assert!(!second.status.success());
    assert!(
        String::from_utf8_lossy(&second.stderr).contains("being written by another searchlab run"),
        "{}",
        String::from_utf8_lossy(&second.stderr)
    );
    // A byte changed inside the written data: extending the file is refused.
    let mut bytes = std::fs::read(&data).unwrap();
    bytes[40] ^= 0x10;
    std::fs::write(&data, &bytes).unwrap();
    let extended = datagen(&data, &["--games", "5"]);
    assert!(!extended.status.success());
    assert!(String::from_utf8_lossy(&extended.stderr).contains("was changed after it was written"));
    // Scrambled piece bytes: an error naming the record, not a panic.
    bytes[40] ^= 0x10;
    std::fs::write(&data, &bytes).unwrap();
    bytes[32 + 8..32 + 24].fill(0xee);
    let scrambled = dir.join("scrambled.bin");
    std::fs::write(&scrambled, &bytes).unwrap();
    let refused = train(&scrambled, &dir.join("s.nnue"), &[]);
    let said = String::from_utf8_lossy(&refused.stderr);
    assert_eq!(refused.status.code(), Some(1), "{said}");
    assert!(
        said.contains("position 2 (byte 32) is not a valid record"),
        "{said}"
    );
    // A learning rate that diverges stops training with an error and writes no network.
    let diverged = Command::new(env!("CARGO_BIN_EXE_searchlab"))
        .args([
            "train",
            "--data",
            data.to_str().unwrap(),
            "--quiet",
            "--lr",
            "1e30",
        ])
        .args([
            "--out",
            dir.join("d.nnue").to_str().unwrap(),
            "--epochs",
            "2",
        ])
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&diverged.stderr);
    assert!(
        !diverged.status.success() && said.contains("training diverged"),
        "{said}"
    );
    assert!(!dir.join("d.nnue").exists());
    // Records changed after datagen wrote them, every one still valid (two swapped): train
    // refuses them by the sidecar's checksum, as datagen does.
    let changed = dir.join("changed.bin");
    let mut swapped = std::fs::read(&data).unwrap();
    let (first, second) = swapped.split_at_mut(32);
    first.swap_with_slice(&mut second[..32]);
    std::fs::write(&changed, &swapped).unwrap();
    std::fs::copy(
        data.with_extension("bin.json"),
        changed.with_extension("bin.json"),
    )
    .unwrap();
    let refused = train(&changed, &dir.join("c.nnue"), &[]);
    let said = String::from_utf8_lossy(&refused.stderr);
    assert!(!refused.status.success(), "{said}");
    assert!(
        said.contains("the data was changed after datagen wrote it"),
        "{said}"
    );
    // Without a sidecar, training says the data is not verified.
    std::fs::remove_file(changed.with_extension("bin.json")).unwrap();
    let unverified = train(&changed, &dir.join("c.nnue"), &[]);
    let said = String::from_utf8_lossy(&unverified.stderr);
    assert!(
        said.contains("are not verified against a checksum"),
        "{said}"
    );
    // A network another `train` is writing (its lock held, here by the test) is refused,
    // naming that run's network and folder, whatever this run's --dir.
    let lock = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(dir.join("busy.nnue.lock"))
        .unwrap();
    std::fs::write(
        dir.join("busy.nnue.lock"),
        "writing busy.nnue from the folder first-run\n",
    )
    .unwrap();
    lock.lock().unwrap();
    let second = train(
        &data,
        &dir.join("busy.nnue"),
        &["--dir", dir.join("second-run").to_str().unwrap()],
    );
    let said = String::from_utf8_lossy(&second.stderr);
    assert!(!second.status.success(), "{said}");
    assert!(
        said.contains("is held by another `train` (writing busy.nnue from the folder first-run)"),
        "{said}"
    );
    drop(lock);
    // --validation 0 says there is no validation.
    let none = ok(train(&data, &dir.join("v.nnue"), &["--validation", "0"]));
    assert!(none.contains("validation loss n/a"), "{none}");
    std::fs::remove_dir_all(&dir).ok();
}

/// Two networks in one process: `net=PATH` in a SPEC names the network a variant evaluates
/// with, read and checked once; the results header records every `nnue` variant's network by
/// checksum (the default's too), so two generations play each other in-process.
#[test]
fn two_networks_play_each_other_in_one_process() {
    let dir = scratch("two-nets");
    let zero = dir.join("zero.nnue");
    std::fs::write(&zero, searchlab::engine::nnue::Network::zeroed().to_bytes()).unwrap();
    let out = dir.join("nets.jsonl");
    ok(Command::new(env!("CARGO_BIN_EXE_searchlab"))
        .args([
            "match",
            "--variant",
            &format!("a=modern,eval=nnue,net={}", zero.display()),
        ])
        .args([
            "--variant",
            "b=modern,eval=nnue",
            "--nodes",
            "300",
            "--games",
            "2",
        ])
        .args([
            "--openings",
            "suites/openings.epd",
            "--quiet",
            "--out",
            out.to_str().unwrap(),
        ])
        .output()
        .unwrap());
    let text = std::fs::read_to_string(&out).unwrap();
    let header: serde_json::Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    let net = |i: usize| {
        header["variants"][i]["config"]["net"]
            .as_str()
            .unwrap()
            .to_string()
    };
    let zero_sum = format!(
        "{:016x}",
        searchlab::engine::nnue::checksum(&std::fs::read(&zero).unwrap())
    );
    assert_eq!(net(0), zero_sum);
    assert_eq!(net(1), searchlab::engine::nnue::EMBEDDED_CHECKSUM.trim());
    // A SPEC naming a file that is not a network is refused with the file and the reason.
    let bad = Command::new(env!("CARGO_BIN_EXE_searchlab"))
        .args([
            "search",
            "startpos",
            "--depth",
            "1",
            "--heuristics",
            "modern,eval=nnue,net=/dev/zero",
        ])
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&bad.stderr);
    assert!(
        !bad.status.success() && said.contains("net=/dev/zero: more than"),
        "{said}"
    );
    std::fs::remove_dir_all(&dir).ok();
}
