//! `searchlab submit` on a real Slurm: a single-node cluster (munged, slurmctld, slurmd) that
//! this test binary starts as root in a scratch folder, with a configuration made from the
//! machine's hostname and core count (`ProctrackType=proctrack/linuxproc`,
//! `TaskPlugin=task/none`), and stops when the test binary exits (a watcher started beside
//! the daemons stops them then, however many tests ran). Without root, `sbatch` or the
//! daemons (Debian's `slurm-wlm` and `munge`, which `.ci/run` installs) each test says
//! SKIPPED.

mod common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use searchlab::harness::results::{PositionRecord, RecordKey, read_results};

struct Cluster {
    dir: PathBuf,
    conf: PathBuf,
}

static CLUSTER: OnceLock<Option<Cluster>> = OnceLock::new();

/// Where a Slurm or munge program is (the daemons live in /usr/sbin, which a PATH may lack).
fn tool(name: &str) -> Option<PathBuf> {
    ["/usr/sbin", "/usr/bin", "/sbin", "/bin"]
        .iter()
        .map(|d| Path::new(d).join(name))
        .find(|p| p.exists())
}

/// The cluster, started on first use; `None` (the test skips) when it cannot be.
fn cluster(test: &str) -> Option<&'static Cluster> {
    let started = CLUSTER.get_or_init(|| {
        let root = Command::new("id")
            .arg("-u")
            .output()
            .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0");
        let tools = [
            "sbatch",
            "slurmctld",
            "slurmd",
            "munged",
            "squeue",
            "scancel",
        ];
        if !root || !tools.iter().all(|t| tool(t).is_some()) {
            return None;
        }
        start().map_err(|e| eprintln!("cluster: {e}")).ok()
    });
    if started.is_none() {
        common::skipped(
            test,
            "no single-node Slurm (needs root and Debian's slurm-wlm and munge)",
        );
    }
    started.as_ref()
}

fn run(command: &mut Command) -> Result<Output, String> {
    let output = command.output().map_err(|e| e.to_string())?;
    if !output.status.success() {
        return Err(format!(
            "{command:?}: {}",
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    Ok(output)
}

/// Start munged, slurmctld and slurmd in a scratch folder and wait for the node to be idle.
fn start() -> Result<Cluster, String> {
    let dir = std::env::temp_dir().join(format!("searchlab-slurm-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    for sub in ["munge", "state", "spool"] {
        std::fs::create_dir_all(dir.join(sub)).map_err(|e| e.to_string())?;
    }
    let key = dir.join("munge/munge.key");
    let bytes: Vec<u8> = (0..1024u32)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8 ^ (std::process::id() as u8))
        .collect();
    std::fs::write(&key, bytes).map_err(|e| e.to_string())?;
    run(Command::new("chmod").args(["600"]).arg(&key))?;
    run(Command::new("chmod").args(["700"]).arg(dir.join("munge")))?;
    let socket = dir.join("munge/munge.socket.2");
    run(Command::new(tool("munged").expect("checked"))
        .arg(format!("--key-file={}", key.display()))
        .arg(format!("--socket={}", socket.display()))
        .arg(format!("--pid-file={}", dir.join("munged.pid").display()))
        .arg(format!("--log-file={}", dir.join("munged.log").display()))
        .arg(format!("--seed-file={}", dir.join("munge/seed").display()))
        .arg("--force"))?;
    let host = String::from_utf8_lossy(&run(Command::new("hostname").arg("-s"))?.stdout)
        .trim()
        .to_string();
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let port = 20_000 + (std::process::id() % 20_000) as u16 * 2 % 40_000;
    let d = dir.display();
    let conf = dir.join("slurm.conf");
    std::fs::write(
        &conf,
        format!(
            "ClusterName=searchlab\nSlurmctldHost={host}\nAuthType=auth/munge\nAuthInfo=socket={}\nCredType=cred/munge\n\
             ProctrackType=proctrack/linuxproc\nTaskPlugin=task/none\nSchedulerType=sched/backfill\n\
             SelectType=select/cons_tres\nSelectTypeParameters=CR_Core\nStateSaveLocation={d}/state\n\
             SlurmdSpoolDir={d}/spool\nSlurmctldPidFile={d}/slurmctld.pid\nSlurmdPidFile={d}/slurmd.pid\n\
             SlurmctldLogFile={d}/slurmctld.log\nSlurmdLogFile={d}/slurmd.log\nSlurmctldPort={port}\n\
             SlurmdPort={}\nSlurmUser=root\nReturnToService=2\nMpiDefault=none\nJobCompType=jobcomp/none\n\
             AccountingStorageType=accounting_storage/none\nJobRequeue=1\nMinJobAge=3600\n\
             NodeName={host} CPUs={cores} State=UNKNOWN\n\
             PartitionName=main Nodes={host} Default=YES MaxTime=INFINITE State=UP\n",
            socket.display(),
            port + 1
        ),
    )
    .map_err(|e| e.to_string())?;
    for daemon in ["slurmctld", "slurmd"] {
        run(Command::new(tool(daemon).expect("checked"))
            .arg("-f")
            .arg(&conf)
            .env("SLURM_CONF", &conf))?;
    }
    // The daemons outlive no test binary: a watcher stops them when this process ends.
    Command::new("sh")
        .arg("-c")
        .arg(format!(
            "while kill -0 {me} 2>/dev/null; do sleep 1; done; for d in slurmd slurmctld munged; do kill $(cat {d}/$d.pid) 2>/dev/null; done",
            me = std::process::id()
        ))
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .map_err(|e| e.to_string())?;
    let began = Instant::now();
    loop {
        let out = Command::new(tool("sinfo").unwrap_or_else(|| "sinfo".into()))
            .args(["-h", "-o", "%T"])
            .env("SLURM_CONF", &conf)
            .output();
        if out.is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "idle") {
            return Ok(Cluster { dir, conf });
        }
        if began.elapsed() > Duration::from_secs(60) {
            return Err(format!("the node did not come up: see {d}/slurmctld.log"));
        }
        std::thread::sleep(Duration::from_millis(200));
    }
}

/// searchlab with the cluster's configuration, from the repository's root.
fn searchlab(cluster: &Cluster, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_searchlab"))
        .args(args)
        .env("SLURM_CONF", &cluster.conf)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap()
}

fn ok(output: Output) -> String {
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// A fresh submission folder.
fn folder(cluster: &Cluster, name: &str) -> PathBuf {
    let dir = cluster.dir.join(name);
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// Wait for the submission's merge job to end (it writes `merge.state`).
fn merged(dir: &Path) -> String {
    let began = Instant::now();
    while began.elapsed() < Duration::from_secs(300) {
        if let Ok(state) = std::fs::read_to_string(dir.join("merge.state")) {
            return state;
        }
        std::thread::sleep(Duration::from_millis(200));
    }
    panic!("the merge of {} did not end within 300 s", dir.display());
}

fn by_key(records: Vec<PositionRecord>) -> BTreeMap<RecordKey, PositionRecord> {
    records.into_iter().map(|r| (r.key(), r)).collect()
}

/// What a search found, without its times.
fn found(r: &PositionRecord) -> (u64, Option<String>, String) {
    (
        r.nodes,
        r.best_move.clone(),
        serde_json::to_string(&r.counters).unwrap(),
    )
}

const RUN: [&str; 8] = [
    "--suite",
    "suites/tactics.epd",
    "--variant",
    "classic",
    "--variant",
    "plain",
    "--depth",
    "5",
];

#[test]
fn a_run_on_two_tasks_gives_the_records_of_one_process() {
    let Some(cluster) = cluster("a_run_on_two_tasks_gives_the_records_of_one_process") else {
        return;
    };
    let dir = folder(cluster, "run");
    let said = ok(searchlab(cluster, &submit_run(&dir)));
    assert!(said.contains("submitted run of 2 tasks"), "{said}");
    assert_eq!(merged(&dir).split_whitespace().nth(1), Some("0"));
    let one = dir.with_extension("one.jsonl");
    let mut args = vec!["run", "--out", one.to_str().unwrap()];
    args.extend(RUN);
    ok(searchlab(cluster, &args));
    let (cluster_records, single) = (
        by_key(read_results(&dir.join("results.jsonl")).unwrap().records),
        by_key(read_results(&one).unwrap().records),
    );
    assert_eq!(cluster_records.len(), single.len());
    for (key, record) in &single {
        assert_eq!(found(&cluster_records[key]), found(record), "{key}");
    }
    assert!(dir.join("report.md").is_file());
    let log = std::fs::read_to_string(dir.join("task-1.log")).unwrap();
    assert!(
        !log.contains("shards given"),
        "a task warned of the other shards: {log}"
    );
    let status = ok(searchlab(cluster, &["status", dir.to_str().unwrap()]));
    assert!(status.contains("tasks: 2 finished"), "{status}");
    // A second submit into the folder is refused (the first is finished: --resume has
    // nothing to do either).
    let again = searchlab(cluster, &submit_run(&dir));
    assert!(!again.status.success());
    // Slurm refusing the job (a partition that does not exist), or no sbatch at all: a
    // clear error, and nothing half-submitted.
    let refused = folder(cluster, "refused");
    let r = refused.to_str().unwrap();
    let mut args = vec![
        "submit",
        "--tasks",
        "2",
        "--dir",
        r,
        "--sbatch",
        "--partition=nowhere",
        "--",
        "run",
    ];
    args.extend(RUN);
    let output = searchlab(cluster, &args);
    let said = String::from_utf8_lossy(&output.stderr);
    assert!(
        !output.status.success() && said.contains("sbatch refused the job"),
        "{said}"
    );
    assert!(!refused.join("submission.json").exists());
    let output = Command::new(env!("CARGO_BIN_EXE_searchlab"))
        .args(&args)
        .env("PATH", "/nonexistent")
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&output.stderr);
    assert!(said.contains("sbatch not found"), "{said}");
    // A task's command line that the binary would refuse is refused before any job.
    let output = searchlab(
        cluster,
        &[
            "submit", "--tasks", "2", "--dir", r, "--", "run", "--depht", "5",
        ],
    );
    let said = String::from_utf8_lossy(&output.stderr);
    assert!(
        said.contains("the tasks' command would be refused"),
        "{said}"
    );
}

/// `submit --tasks 2 --dir DIR -- run` of the small run.
fn submit_run(dir: &Path) -> Vec<&str> {
    let mut args = vec![
        "submit",
        "--tasks",
        "2",
        "--dir",
        dir.to_str().unwrap(),
        "--",
        "run",
    ];
    args.extend(RUN);
    args
}

#[test]
fn a_match_stops_when_the_merged_sprt_decides() {
    let Some(cluster) = cluster("a_match_stops_when_the_merged_sprt_decides") else {
        return;
    };
    let dir = folder(cluster, "match");
    let d = dir.to_str().unwrap();
    ok(searchlab(
        cluster,
        &[
            "submit",
            "--tasks",
            "2",
            "--dir",
            d,
            "--",
            "match",
            "--variant",
            "plain",
            "--variant",
            "classic",
            "--depth",
            "3",
            "--openings",
            "suites/openings.epd",
            "--games",
            "1200",
            "--sprt",
            "elo0=0,elo1=100",
        ],
    ));
    assert_eq!(merged(&dir).split_whitespace().nth(1), Some("0"));
    let report = std::fs::read_to_string(dir.join("report.md")).unwrap();
    assert!(report.contains("H1 accepted"), "{report}");
    assert!(report.contains("pooled across the tasks"), "{report}");
    assert!(!report.contains("recorded but not counted"), "{report}");
    // Each task's log says what stopped it: the pooled SPRT, not its own shard's LLR.
    let log = std::fs::read_to_string(dir.join("task-1.log")).unwrap();
    assert!(
        log.contains("the SPRT pooled over every task's pairs"),
        "{log}"
    );
    let status = ok(searchlab(cluster, &["status", d]));
    assert!(status.contains("H1 accepted"), "{status}");
    let (header, pairs, _) = searchlab::harness::games::playing::record::read_matches(&[
        dir.join("shard-1.jsonl"),
        dir.join("shard-2.jsonl"),
    ])
    .unwrap();
    assert!(pairs.len() < 100, "{} pairs: far short of 600", pairs.len());
    let result = &searchlab::harness::games::rating::tally::tally(&header, &pairs)[0];
    assert_eq!(
        result.counts.pairs() as usize,
        pairs.len(),
        "a pooled SPRT counts every pair"
    );
    // Pairs past the crossing: those after the fewest (in the planned order) whose counts
    // already decide.
    let sprt = header.sprt.unwrap();
    let mut counts = searchlab::harness::games::rating::stats::Counts::default();
    let mut crossing = pairs.len();
    for (k, pair) in pairs.iter().enumerate() {
        let [a, b] = pair.outcomes();
        counts.add_pair(a, b);
        if sprt.decide(sprt.llr(&counts))
            != searchlab::harness::games::rating::stats::Decision::Continue
        {
            crossing = k + 1;
            break;
        }
    }
    let past = pairs.len() - crossing;
    eprintln!("merged SPRT: crossed after {crossing} pairs, {past} played past it on 2 tasks");
    assert!(past <= 2 * 2, "{past} pairs past the decision");
    // The merged file gives the Elo and LLR of one process over the same pairs.
    let merged_file =
        searchlab::harness::games::playing::record::read_matches(&[dir.join("results.jsonl")])
            .unwrap();
    let again = &searchlab::harness::games::rating::tally::tally(&merged_file.0, &merged_file.1)[0];
    assert_eq!(again.counts, result.counts);
}

/// A match at two levels of effort on two tasks: each task plays its share of every level,
/// the merge joins each level's shards in its folder and reports Elo against effort.
#[test]
fn a_match_at_two_levels_splits_every_level_and_reports_elo_against_effort() {
    let Some(cluster) =
        cluster("a_match_at_two_levels_splits_every_level_and_reports_elo_against_effort")
    else {
        return;
    };
    let dir = folder(cluster, "levels");
    let d = dir.to_str().unwrap();
    ok(searchlab(
        cluster,
        &[
            "submit",
            "--tasks",
            "2",
            "--dir",
            d,
            "--",
            "match",
            "--variant",
            "classic",
            "--ablation",
            "off-one:futility",
            "--nodes",
            "300,1200",
            "--games",
            "8",
            "--openings",
            "suites/openings.epd",
        ],
    ));
    assert_eq!(merged(&dir).split_whitespace().nth(1), Some("0"));
    for level in ["nodes-300", "nodes-1200"] {
        let (_, pairs, _) = searchlab::harness::games::playing::record::read_matches(&[dir
            .join(level)
            .join("results.jsonl")])
        .unwrap();
        assert_eq!(pairs.len(), 4, "{level}");
        assert!(dir.join(level).join("shard-2.jsonl").is_file(), "{level}");
    }
    let report = std::fs::read_to_string(dir.join("report.md")).unwrap();
    assert!(report.starts_with("# Elo against effort"), "{report}");
    assert!(dir.join("effort.svg").is_file());
    let status = ok(searchlab(cluster, &["status", d]));
    assert!(status.contains("level nodes-1200:"), "{status}");
}

#[test]
fn datagen_on_two_tasks_merges_to_the_positions_of_one_process() {
    let Some(cluster) = cluster("datagen_on_two_tasks_merges_to_the_positions_of_one_process")
    else {
        return;
    };
    let dir = folder(cluster, "datagen");
    let d = dir.to_str().unwrap();
    let game = [
        "--games",
        "6",
        "--nodes",
        "600",
        "--openings",
        "suites/openings.epd",
    ];
    let mut args = vec!["submit", "--tasks", "2", "--dir", d, "--", "datagen"];
    args.extend(game);
    ok(searchlab(cluster, &args));
    assert_eq!(merged(&dir).split_whitespace().nth(1), Some("0"));
    let one = dir.with_extension("one.bin");
    let mut args = vec!["datagen", "--quiet", "--out", one.to_str().unwrap()];
    args.extend(game);
    ok(searchlab(cluster, &args));
    let sorted = |path: &Path| {
        let bytes = std::fs::read(path).unwrap();
        let mut records: Vec<Vec<u8>> = bytes.chunks(32).map(<[u8]>::to_vec).collect();
        records.sort();
        records
    };
    let (merged_data, single) = (sorted(&dir.join("data.bin")), sorted(&one));
    assert!(!single.is_empty());
    assert_eq!(merged_data, single);
    let provenance = std::fs::read_to_string(dir.join("data.bin.json")).unwrap();
    assert!(provenance.contains("merged_from"), "{provenance}");
}

#[test]
fn a_cancelled_task_is_resumed_and_nothing_counts_twice() {
    let Some(cluster) = cluster("a_cancelled_task_is_resumed_and_nothing_counts_twice") else {
        return;
    };
    let dir = folder(cluster, "cancel");
    let d = dir.to_str().unwrap();
    let run = [
        "run",
        "--suite",
        "suites/bench.epd",
        "--variant",
        "classic",
        "--depth",
        "8",
    ];
    let mut args = vec!["submit", "--tasks", "2", "--dir", d, "--"];
    args.extend(run);
    ok(searchlab(cluster, &args));
    let submission: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("submission.json")).unwrap())
            .unwrap();
    let array = submission["jobs"][0]["array"].as_str().unwrap().to_string();
    // Cancel task 2 once it has written a record.
    let began = Instant::now();
    while read_results(&dir.join("shard-2.jsonl")).map_or(0, |r| r.records.len()) < 1 {
        assert!(
            began.elapsed() < Duration::from_secs(120),
            "task 2 wrote nothing"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    Command::new("scancel")
        .arg(format!("{array}_2"))
        .env("SLURM_CONF", &cluster.conf)
        .output()
        .unwrap();
    // The merge can never run now (its dependency failed): withdraw it, as an operator would.
    let merge = submission["jobs"][0]["merge"].as_str().unwrap().to_string();
    let began = Instant::now();
    while searchlab::harness::cluster::status::task_state(&dir, 1)
        != searchlab::harness::cluster::status::TaskState::Finished
    {
        assert!(
            began.elapsed() < Duration::from_secs(300),
            "task 1 did not end"
        );
        std::thread::sleep(Duration::from_millis(200));
    }
    Command::new("scancel")
        .arg(&merge)
        .env("SLURM_CONF", &cluster.conf)
        .output()
        .unwrap();
    std::thread::sleep(Duration::from_secs(1));
    let resumed = ok(searchlab(cluster, &["submit", "--resume", "--dir", d]));
    assert!(resumed.contains("(tasks 2)"), "{resumed}");
    assert_eq!(merged(&dir).split_whitespace().nth(1), Some("0"));
    let records = read_results(&dir.join("results.jsonl")).unwrap();
    let planned = records.header.as_ref().unwrap().planned().unwrap().len();
    assert_eq!(records.records.len(), planned, "whole, and nothing twice");
    assert!(records.header.unwrap().missing.is_empty());
}

/// Run a command of Slurm's with the cluster's configuration; its stdout.
fn slurm(cluster: &Cluster, program: &str, args: &[&str]) -> String {
    let output = Command::new(program)
        .args(args)
        .env("SLURM_CONF", &cluster.conf)
        .output()
        .unwrap();
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// A hostile folder name runs nothing; a cancelled task leaves no submission stuck (`status`
/// says what became of it and that the merge can never run; `--resume` withdraws that merge
/// and ends in a whole merged run); a merge that failed on an unreadable shard is counted
/// against the whole run, names the shard, and is run again by `--resume`.
#[test]
fn a_dead_task_and_a_failed_merge_recover_with_resume() {
    let Some(cluster) = cluster("a_dead_task_and_a_failed_merge_recover_with_resume") else {
        return;
    };
    let planted = std::env::temp_dir().join(format!("searchlab-pwned-{}", std::process::id()));
    let dir = folder(
        cluster,
        &format!(
            "hostile $(touch {}) \"q\" `touch {}` $HOME",
            planted.display(),
            planted.display()
        ),
    );
    let said = ok(searchlab(cluster, &submit_run(&dir)));
    let array = said
        .split_whitespace()
        .skip_while(|w| *w != "array")
        .nth(2)
        .map(|w| w.trim_matches(|c: char| !c.is_ascii_digit()).to_string())
        .unwrap_or_else(|| panic!("the array's id in: {said}"));
    slurm(cluster, "scancel", &[&format!("{array}_1")]);
    // Task 2 ends; the merge then waits for ever on the cancelled task 1.
    let began = Instant::now();
    let status = loop {
        let status = ok(searchlab(cluster, &["status", dir.to_str().unwrap()]));
        if status.contains("can never run") {
            break status;
        }
        assert!(
            began.elapsed() < Duration::from_secs(120),
            "the merge was never said to be stuck: {status}"
        );
        std::thread::sleep(Duration::from_millis(500));
    };
    assert!(
        status.contains("task 1 ended without writing its state")
            || status.contains("task 1 left Slurm's queue without starting"),
        "{status}"
    );
    assert!(!status.contains("time left: about"), "{status}");
    ok(searchlab(
        cluster,
        &["submit", "--resume", "--dir", dir.to_str().unwrap()],
    ));
    assert_eq!(merged(&dir).split_whitespace().nth(1), Some("0"));
    let whole = read_results(&dir.join("results.jsonl")).unwrap();
    let planned = whole
        .header
        .as_ref()
        .unwrap()
        .planned_whole()
        .unwrap()
        .len();
    assert_eq!(whole.records.len(), planned);
    assert!(!planted.exists(), "a folder's name ran a command");
    // A merge that failed (a shard unreadable when it ran).
    let shard = dir.join("shard-2.jsonl");
    let kept = std::fs::read(&shard).unwrap();
    std::fs::write(&shard, b"not json\n").unwrap();
    std::fs::write(dir.join("merge.state"), "exit 1 0\n").unwrap();
    let status = ok(searchlab(cluster, &["status", dir.to_str().unwrap()]));
    assert!(
        status.contains(&format!("of {planned} searches recorded")),
        "{status}"
    );
    assert!(
        status.contains("a shard cannot be read") && status.contains("shard-2.jsonl"),
        "{status}"
    );
    assert!(status.contains("the merge failed"), "{status}");
    std::fs::write(&shard, kept).unwrap();
    std::fs::remove_file(dir.join("results.jsonl")).unwrap();
    ok(searchlab(
        cluster,
        &["submit", "--resume", "--dir", dir.to_str().unwrap()],
    ));
    assert_eq!(merged(&dir).split_whitespace().nth(1), Some("0"));
    assert_eq!(
        read_results(&dir.join("results.jsonl"))
            .unwrap()
            .records
            .len(),
        planned
    );
}

/// `submit` checks each task's command as the local command does before its work (engines
/// started, suites and books read) and takes the fastchess form, before anything is queued:
/// no Slurm is needed to see it refuse.
#[test]
fn submit_probes_engines_suites_and_books_and_takes_the_fastchess_form() {
    let dir = std::env::temp_dir().join(format!("searchlab-submit-probe-{}", std::process::id()));
    let d = dir.to_str().unwrap();
    // A PATH with a shell (engines start through `sh`) and no sbatch.
    let bin = dir.with_extension("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let _ = std::os::unix::fs::symlink("/bin/sh", bin.join("sh"));
    let submit = |args: &[&str]| {
        let output = Command::new(env!("CARGO_BIN_EXE_searchlab"))
            .args(["submit", "--tasks", "2", "--dir", d, "--"])
            .args(args)
            .env("PATH", &bin)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .output()
            .unwrap();
        String::from_utf8_lossy(&output.stderr).into_owned()
    };
    let said = submit(&[
        "match",
        "--engine",
        "name=x cmd=/nonexistent/engine",
        "--variant",
        "modern",
        "--openings",
        "suites/openings.epd",
        "--nodes",
        "1000",
    ]);
    assert!(said.contains("the tasks' command would fail: player 'x': engine program '/nonexistent/engine' not found"), "{said}");
    let said = submit(&["run", "--suite", "suites/nonexistent.epd", "--depth", "3"]);
    assert!(
        said.contains("would fail: suites/nonexistent.epd"),
        "{said}"
    );
    let said = submit(&[
        "match",
        "--variant",
        "a=modern",
        "--variant",
        "b=classic",
        "--openings",
        "suites/nonexistent.pgn",
        "--nodes",
        "1000",
    ]);
    assert!(
        said.contains("would fail: --openings suites/nonexistent.pgn"),
        "{said}"
    );
    // Under a node limit a replayed opening replays its games: refused before anything queues.
    let said = submit(&[
        "match",
        "--variant",
        "a=modern",
        "--variant",
        "b=classic",
        "--openings",
        "suites/openings.epd",
        "--nodes",
        "1000",
        "--games",
        "1202",
    ]);
    assert!(
        said.contains("would fail: --games 1202: suites/openings.epd holds 600 openings, so 1200 games at most"),
        "{said}"
    );
    assert!(!dir.join("submission.json").exists());
    // The fastchess form passes the checks and reaches sbatch (not on PATH here).
    let exe = env!("CARGO_BIN_EXE_searchlab");
    let said = submit(&[
        "match",
        "--",
        "-engine",
        &format!("cmd={exe}"),
        "name=a",
        "-engine",
        &format!("cmd={exe}"),
        "name=b",
        "-each",
        "tc=1+0.01",
        "-rounds",
        "2",
        "-repeat",
        "-openings",
        "file=suites/openings.epd",
        "format=epd",
    ]);
    assert!(
        said.contains("equivalent: searchlab match --engine"),
        "{said}"
    );
    assert!(said.contains("sbatch not found"), "{said}");
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(&bin);
}
