//! The players of `run` and `match`: searchlab's own variants, external engines, what every
//! engine gets, and the designs that widen the first player into variants of it.

use crate::harness::design::Design;
use crate::harness::plan;
use crate::harness::variant::Variant;

/// Arguments naming the players, shared by `run` and `match`.
#[derive(clap::Args, Clone, Debug)]
pub struct PlayerArgs {
    /// A variant of searchlab's own search `[LABEL=]SPEC`, repeated (a label or SPEC may start
    /// with `-`: `--variant -killers=classic,-killers`), or the keyed form `"name=LABEL
    /// spec=SPEC [tc=… st=… nodes=… depth=… timemargin=…]"` (in `match`, limits of its own:
    /// time or node odds). The first player is the baseline. `run` with no player runs the
    /// main job.
    #[arg(long = "variant", allow_hyphen_values = true)]
    pub variants: Vec<String>,
    /// An external UCI engine, repeated (players after the variants): `"name=dev cmd=./dev
    /// args='-x 1' dir=PATH option.Hash=64"` (fastchess's form; in `match` with the player's
    /// own `tc=`, `st=`, `nodes=`, `depth=`, `timemargin=`) or `[LABEL=]"COMMAND"`. `Threads=1`
    /// and `Hash=16` are sent unless given. In `run`: one process per worker for the whole run
    /// (`ucinewgame` before each position); a crash, hang or illegal move fails that position
    /// with its reason and restarts the engine; its counter lines (docs/protocol.md) become
    /// the record's counters.
    #[arg(long = "engine")]
    pub engines: Vec<String>,
    /// Settings for every player, `"option.NAME=VALUE tc=8+0.08 ..."`: options for every
    /// engine, limits for every player in `match` (a player's own key wins).
    #[arg(long = "each")]
    pub each: Vec<String>,
    /// `NAME=VALUE` sent to every external engine with setoption, repeated (the same as
    /// `--each option.NAME=VALUE`).
    #[arg(long = "uci-option")]
    pub uci_options: Vec<String>,
    /// Variants of the first player: `on-one` adds one per heuristic switched on alone over it
    /// (`run`'s default base `plain`), `off-one` one per heuristic of it switched off (default
    /// `all`), of every heuristic or the listed ones (`off-one:lmr,see`); `pairs[:ID,ID,...]`
    /// (`run` only) the interaction matrix: every single toggle and every pair (default: the
    /// main job's six) over the base (default `classic`), reported as synergy ratios. With one
    /// `--engine` and no `--variant`, the same designs flip the engine's check options
    /// (`searchlab engine-options` lists them). In `match` each variant plays the base.
    #[arg(long, value_name = "on-one|off-one|pairs[:ID,...]")]
    pub ablation: Option<String>,
    /// Sweep a parameter of the first player (`run`'s default `classic`), one variant per
    /// value: `ID.PARAM=V1,V2,...` or `ID.PARAM=FROM..TO:STEP`; repeated, a grid. The heuristic
    /// is switched on when the base has it off; the report draws node ratio and solve rate
    /// against the value, the default marked. With one `--engine`: `option.NAME=VALUES` (or
    /// `LABEL.option.NAME=…`) sweeps one of its spin options within its advertised range.
    #[arg(long = "sweep", value_name = "ID.PARAM=VALUES")]
    pub sweeps: Vec<String>,
}

impl PlayerArgs {
    /// No player is named and no design asked for.
    pub fn none(&self) -> bool {
        self.variants.is_empty()
            && self.engines.is_empty()
            && self.ablation.is_none()
            && self.sweeps.is_empty()
    }

    /// The players, every engine probed, widened by the design asked for (`plan::
    /// probed_variants`).
    pub fn probed(&self) -> Result<(Vec<Variant>, Option<Design>), String> {
        plan::probed_variants(
            &self.variants,
            &self.engines,
            (&self.each, &self.uci_options),
            self.ablation.as_deref(),
            &self.sweeps,
        )
    }
}
