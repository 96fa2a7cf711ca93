//! `searchlab submit` and `searchlab status`: a command sent to a Slurm cluster as an array of
//! shards and a merge, and its standing read back from its folder.

use std::path::PathBuf;

use clap::{Parser, Subcommand};

use super::games::{self, MatchArgs};
use super::nnue::{self, DatagenArgs};
use super::run::{self, RunArgs};
use super::tune::{self, TuneArgs};
use crate::harness::cluster::{self, SubmitPlan};

/// Arguments of `searchlab submit`.
#[derive(clap::Args, Debug)]
pub struct SubmitArgs {
    /// Array tasks (shards) of a new submission.
    #[arg(long)]
    pub tasks: Option<usize>,
    /// The submission's folder, on a file system every node shares: the binary's copy,
    /// `submission.json`, each task's file, log and state, the merged results.
    #[arg(long)]
    pub dir: PathBuf,
    /// More `sbatch` arguments for every job, as one string ("--partition=short
    /// --time=02:00:00 --cpus-per-task=2").
    #[arg(long, allow_hyphen_values = true)]
    pub sbatch: Option<String>,
    /// Submit again the tasks of DIR's submission that did not finish (cancelled,
    /// failed), and the merge after them.
    #[arg(long)]
    pub resume: bool,
    /// `run|match|datagen|tune ARGS...`, after `--`.
    #[arg(last = true)]
    pub command: Vec<String>,
}

/// Arguments of `searchlab status`.
#[derive(clap::Args, Debug)]
pub struct StatusArgs {
    /// The submission's folder.
    pub dir: PathBuf,
}

/// A task's command line as the binary parses it: one of the commands `submit` sends, and the
/// global `--net`.
#[derive(Parser)]
#[command(name = "searchlab")]
struct TaskLine {
    #[command(subcommand)]
    command: TaskCommand,
    #[arg(long, global = true)]
    net: Option<PathBuf>,
}

#[derive(Subcommand)]
enum TaskCommand {
    Run(RunArgs),
    Match(MatchArgs),
    Datagen(DatagenArgs),
    Tune(TuneArgs),
}

/// A task's full command line (`searchlab COMMAND ARGS --shard 1/N --out …`) parsed as the
/// binary parses it, then checked as the local command checks it before its work: engines
/// started, suites and books read. Returns the folders of a match's levels of effort.
fn check_task(line: &[String]) -> Result<Vec<String>, String> {
    let parsed = TaskLine::try_parse_from(line).map_err(|e| {
        format!(
            "the tasks' command would be refused: {}",
            e.to_string().trim()
        )
    })?;
    match &parsed.command {
        TaskCommand::Run(args) => run::preflight(args).map(|()| Vec::new()),
        TaskCommand::Match(args) => games::preflight(args),
        TaskCommand::Tune(args) => tune::preflight(args).map(|()| Vec::new()),
        TaskCommand::Datagen(args) => nnue::datagen_preflight(args).map(|()| Vec::new()),
    }
    .map_err(|e| format!("the tasks' command would fail: {e}"))
}

/// `searchlab submit`.
pub fn submit(args: &SubmitArgs) -> Result<(), String> {
    let command = super::fastchess::translate_task(args.command.clone())?;
    let plan = SubmitPlan {
        dir: args.dir.clone(),
        tasks: args.tasks,
        sbatch: args.sbatch.clone(),
        resume: args.resume,
        command,
        check: &check_task,
    };
    let submission = cluster::submit(&plan)?;
    let jobs = submission.jobs.last().expect("submit adds its jobs");
    let status_hint = cluster::status_command(&plan.dir);
    if jobs.array.is_empty() {
        println!(
            "every task had finished: the merge alone submitted again, job {}, into {}; `{status_hint}` follows it",
            jobs.merge,
            plan.dir.display()
        );
        return Ok(());
    }
    println!(
        "submitted {} of {} tasks: array job {} (tasks {}), merge job {} after it, into {}; `{}` follows it",
        submission.kind.name(),
        submission.tasks,
        jobs.array,
        jobs.tasks
            .iter()
            .map(usize::to_string)
            .collect::<Vec<_>>()
            .join(","),
        jobs.merge,
        plan.dir.display(),
        status_hint
    );
    Ok(())
}

/// `searchlab status`.
pub fn status(args: &StatusArgs) -> Result<(), String> {
    cluster::status::status(&args.dir).map(|text| print!("{text}"))
}
