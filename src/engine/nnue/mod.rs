//! NNUE: an efficiently updatable neural network evaluation (Yu Nasu, 2018; the form Stockfish
//! adopted in 2020 and most engines of the field use since), ours end to end: inference here,
//! data generation and training in the harness.
//!
//! The architecture is the community's common first net, `(768 → H) × 2 → 1`:
//! - **Inputs**: 768 = 2 colours × 6 piece types × 64 squares, one per piece on the board, seen
//!   from each side (`feature`): "ours" and "theirs" relative to the perspective, the board
//!   mirrored vertically for Black, so one set of weights serves both sides.
//! - **Accumulator**: each perspective's hidden layer of `HIDDEN` sums, kept up to date move by
//!   move (`Accumulator::after` adds and subtracts only the rows of the pieces that moved).
//! - **Output**: SCReLU (`clamp(x, 0, 1)²`) of the side to move's accumulator then the other
//!   side's, a dot product with `2·HIDDEN` weights, plus a bias; a net may have one such output
//!   layer or one per bucket of the number of pieces on the board (`OUTPUT_BUCKETS`).
//!
//! Quantised as bullet's reference nets are (facts of the format, not its code): the hidden
//! layer in units of `QA = 255`, the output weights in units of `QB = 64`, and the output scaled
//! by `SCALE = 400` centipawns per unit, so a float net trained on `sigmoid(cp / 400)` targets
//! reads in centipawns. The integer arithmetic is exact and deterministic.

mod accumulator;
mod features;
pub mod network;

pub use accumulator::Accumulator;
pub use features::{HIDDEN, INPUTS, OUTPUT_BUCKETS, QA, QB, SCALE, feature, output_bucket};
pub use network::{
    CHECKSUM_START, FILE_BYTES, FORMAT_MAGIC, INPUT_WEIGHT_MAX, Network, NetworkError,
    OUTPUT_WEIGHT_MAX, checksum, checksum_on,
};

/// The shipped network, embedded in the binary: how it was made is in `net/PROVENANCE.md`
/// beside it, with its checksum.
static EMBEDDED: &[u8] = include_bytes!("net/searchlab.nnue");

/// The checksum `net/PROVENANCE.md` names (a test holds the two together).
pub const EMBEDDED_CHECKSUM: &str = include_str!("net/checksum.txt");

/// The embedded network, read once.
pub fn embedded() -> &'static Network {
    static NET: std::sync::OnceLock<Network> = std::sync::OnceLock::new();
    NET.get_or_init(|| {
        Network::from_bytes(EMBEDDED).expect("the embedded network reads (a test checks it)")
    })
}

/// The embedded network's file.
pub fn embedded_bytes() -> &'static [u8] {
    EMBEDDED
}

/// The network `nnue` evaluates with in this process, and its file's checksum.
static ACTIVE: std::sync::OnceLock<(&'static Network, u64)> = std::sync::OnceLock::new();

/// The network `nnue` evaluates with: the one `install` put in place (`--net FILE`, for a
/// candidate net before it is embedded: generation n+1's data is played by generation n), else
/// the embedded one. Fixed for the process once read, so every search of a run, match or
/// datagen evaluates with the same net.
pub fn active() -> &'static Network {
    ACTIVE.get_or_init(|| (embedded(), checksum(EMBEDDED))).0
}

/// The checksum of the network `install` put in place, for results headers to record (`None`:
/// the embedded one, which the header's commit names).
pub fn installed_checksum() -> Option<String> {
    match ACTIVE.get() {
        Some((net, sum)) if !std::ptr::eq(*net, embedded()) => Some(format!("{sum:016x}")),
        _ => None,
    }
}

/// Networks read in this process (`net=PATH` in a SPEC), by checksum: each file read and
/// checked once, kept for the process, so a configuration names its network by a `Copy`
/// checksum and every search of it evaluates with the same weights.
static LOADED: std::sync::Mutex<Vec<(u64, &'static Network)>> = std::sync::Mutex::new(Vec::new());

/// Read and check the network file `path` (once per file content), and return its checksum,
/// by which `NetChoice` names it.
pub fn load(path: &std::path::Path) -> Result<u64, String> {
    let bytes = read_file(path).map_err(|e| format!("net={}: {e}", path.display()))?;
    let sum = checksum(&bytes);
    let mut loaded = LOADED.lock().unwrap_or_else(|e| e.into_inner());
    if !loaded.iter().any(|(c, _)| *c == sum) {
        let net =
            Network::from_bytes(&bytes).map_err(|e| format!("net={}: {e}", path.display()))?;
        loaded.push((sum, Box::leak(Box::new(net))));
    }
    Ok(sum)
}

/// The checksum of the process's default network (`--net`, else the embedded one), which
/// `NetChoice` may then name like a loaded one.
pub fn pin_default() -> u64 {
    let net = active();
    let sum = ACTIVE.get().expect("`active` set it").1;
    let mut loaded = LOADED.lock().unwrap_or_else(|e| e.into_inner());
    if !loaded.iter().any(|(c, _)| *c == sum) {
        loaded.push((sum, net));
    }
    sum
}

/// The network a configuration evaluates `nnue` with: the process's default (`None`: the
/// `--net` file, else the embedded network) or one read by `load`, named by its checksum.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct NetChoice(pub Option<u64>);

impl NetChoice {
    /// The process's default network.
    pub fn is_default(&self) -> bool {
        self.0.is_none()
    }

    /// The weights. A checksum no `load` of this process read (a configuration read back from
    /// a results file, say) has none to evaluate with: that is a bug of the caller, named.
    pub fn network(&self) -> &'static Network {
        match self.0 {
            None => active(),
            Some(sum) => LOADED
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .iter()
                .find(|(c, _)| *c == sum)
                .map(|(_, net)| *net)
                .unwrap_or_else(|| panic!("network {sum:016x} was not loaded in this process")),
        }
    }

    /// The checksum of the network it names (the default's too), for headers.
    pub fn checksum(&self) -> String {
        match self.0 {
            Some(sum) => format!("{sum:016x}"),
            None => format!(
                "{:016x}",
                ACTIVE
                    .get()
                    .map_or_else(|| checksum(EMBEDDED), |(_, sum)| *sum)
            ),
        }
    }
}

impl serde::Serialize for NetChoice {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self.0 {
            Some(sum) => s.serialize_str(&format!("{sum:016x}")),
            None => s.serialize_none(),
        }
    }
}

impl<'de> serde::Deserialize<'de> for NetChoice {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text: Option<String> = serde::Deserialize::deserialize(d)?;
        text.map(|t| u64::from_str_radix(&t, 16).map_err(serde::de::Error::custom))
            .transpose()
            .map(NetChoice)
    }
}

/// A network file's bytes, read no further than a network's size: a file larger than one (a
/// device such as /dev/zero, another format) is refused without reading it whole.
pub fn read_file(path: &std::path::Path) -> Result<Vec<u8>, String> {
    use std::io::Read;
    let file = std::fs::File::open(path).map_err(|e| e.to_string())?;
    let mut bytes = Vec::with_capacity(FILE_BYTES + 1);
    file.take(FILE_BYTES as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| e.to_string())?;
    if bytes.len() > FILE_BYTES {
        return Err(format!(
            "more than the {FILE_BYTES} bytes of a network: not a network of this build"
        ));
    }
    Ok(bytes)
}

/// Make the network file `bytes` the active one for this process; refused when a search has
/// already read the active network (it would change under it) or when the file does not read.
pub fn install(bytes: &[u8]) -> Result<(), String> {
    let net = Network::from_bytes(bytes).map_err(|e| e.to_string())?;
    let net: &'static Network = Box::leak(Box::new(net));
    ACTIVE
        .set((net, checksum(bytes)))
        .map_err(|_| "the network is already in use: choose it before any search".to_string())
}

#[cfg(test)]
mod tests;
