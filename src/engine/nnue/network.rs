//! A quantised network: its weights, the file format it is kept in, and the output layer.
//!
//! File format (little-endian), written by `searchlab train`:
//! `b"SLNN"`, format version `u32`, `HIDDEN` as `u32`, then `i16` arrays: the input weights
//! (`INPUTS` rows of `HIDDEN`, row = feature) and the hidden biases (`HIDDEN`); then
//! - format 1 (one output): the output weights (`2·HIDDEN`: side to move, then the other side)
//!   and the output bias as `i32`;
//! - format 2 (`OUTPUT_BUCKETS` outputs): `OUTPUT_BUCKETS` as `u32`, each bucket's output
//!   weights (`2·HIDDEN`) in bucket order, then each bucket's bias as `i32`;
//! - format 3: format 2's layout, for a mirrored network (`Network::mirrored`: each
//!   perspective's inputs mirrored file for file when its king is on the e to h files).
//!
//! Nothing follows. A format-1 network reads as one whose buckets are all the same, and a
//! network whose buckets are all the same is written in format 1: a format-1 file writes back
//! byte for byte, and so does a format-2 file whose buckets differ (every one `train` writes;
//! a format-2 file of identical buckets comes back as the same network in format 1). `checksum` is FNV-1a over the whole file, for
//! provenance files to name.

use super::features::{HIDDEN, INPUTS, OUTPUT_BUCKETS, QA, QB, SCALE, output_bucket};
use crate::engine::score::Score;

/// The largest output weight a network may have, units of `QB`: with the hidden layer clamped
/// to `QA = 255`, 255 · 128 fits in i16 and 2·HIDDEN products of up to 255 · 32,640 sum within
/// i32, so `evaluate` runs in i16/i32 arithmetic. Bullet clips every weight to ±1.98 (±126.7
/// here), so a net of the field's usual training keeps within it.
pub const OUTPUT_WEIGHT_MAX: i16 = 128;

/// The largest input weight or hidden bias a network may have, units of `QA`: the trainer
/// clips both to ±1.98 (`harness::nnue::model::CLIP`, as bullet does), 505 once quantised,
/// so that an accumulator of 32 pieces and its bias (33 · 505 = 16,665) fits in i16. A file
/// with larger ones was not written by a trainer of this format, and its accumulator would
/// wrap.
pub const INPUT_WEIGHT_MAX: i16 = 505;

/// The largest output bias, units of `QA · QB`: 16 output units, 6,400 centipawns. The
/// trainer stops a run whose bias leaves it (a diverging learning rate); a sound net's is a
/// fraction of a unit.
pub const OUTPUT_BIAS_MAX: i32 = 16 * QA * QB;

/// The first four bytes of a network file.
pub const FORMAT_MAGIC: &[u8; 4] = b"SLNN";

/// A quantised `(768 → HIDDEN) × 2 → 1` network, with an output layer per bucket of the
/// number of pieces (`output_bucket`).
#[derive(Clone, PartialEq, Eq)]
pub struct Network {
    /// Input weights, one row of `HIDDEN` per feature, in units of `QA`.
    pub input: Box<[[i16; HIDDEN]; INPUTS]>,
    /// Hidden biases, units of `QA`.
    pub hidden_bias: [i16; HIDDEN],
    /// Each bucket's output weights: the side to move's half, then the other side's; units of
    /// `QB`.
    pub output: [[i16; 2 * HIDDEN]; OUTPUT_BUCKETS],
    /// Each bucket's output bias, units of `QA · QB`.
    pub output_bias: [i32; OUTPUT_BUCKETS],
    /// Each perspective reads the board file for file mirrored when its own king stands on the
    /// e to h files (`features::flips`; format 3).
    pub mirrored: bool,
}

impl std::fmt::Debug for Network {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Network({HIDDEN} hidden, checksum {:016x})",
            checksum(&self.to_bytes())
        )
    }
}

/// Why a network file was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NetworkError(pub String);

impl std::fmt::Display for NetworkError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// The bytes before the output layer: magic, format, `HIDDEN`, input weights, hidden biases.
const HIDDEN_LAYER_END: usize = 4 + 4 + 4 + 2 * (INPUTS * HIDDEN + HIDDEN);

/// The size of a format-1 network file (one output) in bytes.
pub const FILE_BYTES_ONE_OUTPUT: usize = HIDDEN_LAYER_END + 2 * 2 * HIDDEN + 4;

/// The size of a format-2 network file (`OUTPUT_BUCKETS` outputs) in bytes: the largest
/// network file this build reads.
pub const FILE_BYTES: usize = HIDDEN_LAYER_END + 4 + OUTPUT_BUCKETS * (2 * 2 * HIDDEN + 4);

impl Network {
    /// A network of zeros (its evaluation is 0 everywhere).
    pub fn zeroed() -> Network {
        Network {
            input: vec![[0i16; HIDDEN]; INPUTS]
                .into_boxed_slice()
                .try_into()
                .expect("INPUTS rows"),
            hidden_bias: [0; HIDDEN],
            output: [[0; 2 * HIDDEN]; OUTPUT_BUCKETS],
            output_bias: [0; OUTPUT_BUCKETS],
            mirrored: false,
        }
    }

    /// Whether every bucket's output layer is the first one's (a format-1 network).
    pub fn has_one_output(&self) -> bool {
        let same = |b: usize| {
            self.output[b] == self.output[0] && self.output_bias[b] == self.output_bias[0]
        };
        (1..OUTPUT_BUCKETS).all(same)
    }

    /// Read a network file: its header and size, its weights, then their bounds.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetworkError> {
        let format = Self::format_of(bytes).map_err(NetworkError)?;
        let net = Self::read_weights(bytes, format);
        net.within_bounds().map_err(NetworkError)?;
        Ok(net)
    }

    /// The format of a file whose header (magic, format, `HIDDEN`, format 2's bucket count)
    /// this build reads and whose size is that format's.
    fn format_of(bytes: &[u8]) -> Result<u32, String> {
        if bytes.len() < 12 || &bytes[..4] != FORMAT_MAGIC {
            return Err("not a searchlab network (it does not start with SLNN)".into());
        }
        let word = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().expect("4 bytes"));
        let format = word(4);
        let expected = match format {
            1 => FILE_BYTES_ONE_OUTPUT,
            2 | 3 => FILE_BYTES,
            other => {
                return Err(format!(
                    "network format {other} (this searchlab reads 1, 2 and 3)"
                ));
            }
        };
        if word(8) as usize != HIDDEN {
            return Err(format!(
                "a network of {} hidden neurons (this searchlab is built for {HIDDEN})",
                word(8)
            ));
        }
        if format >= 2 && bytes.len() >= HIDDEN_LAYER_END + 4 {
            let buckets = word(HIDDEN_LAYER_END) as usize;
            if buckets != OUTPUT_BUCKETS {
                return Err(format!(
                    "a network of {buckets} output buckets (this searchlab is built for {OUTPUT_BUCKETS})"
                ));
            }
        }
        if bytes.len() != expected {
            return Err(format!(
                "{} bytes where a format-{format} network has {expected}",
                bytes.len()
            ));
        }
        Ok(format)
    }

    /// The weights of a file `format_of` accepted (format 1's one output layer copied into
    /// every bucket; format 3 mirrored).
    fn read_weights(bytes: &[u8], format: u32) -> Network {
        let mut at = 12;
        let mut next = || {
            let v = i16::from_le_bytes([bytes[at], bytes[at + 1]]);
            at += 2;
            v
        };
        let mut net = Network::zeroed();
        for row in net.input.iter_mut() {
            row.iter_mut().for_each(|w| *w = next());
        }
        net.hidden_bias.iter_mut().for_each(|w| *w = next());
        net.mirrored = format == 3;
        let buckets = if format == 1 { 1 } else { OUTPUT_BUCKETS };
        if format >= 2 {
            // The bucket count, which `format_of` checked.
            next();
            next();
        }
        for bucket in &mut net.output[..buckets] {
            bucket.iter_mut().for_each(|w| *w = next());
        }
        for bias in &mut net.output_bias[..buckets] {
            // An i32: its low 16-bit word, then its high one (little-endian).
            let low = i32::from(next() as u16);
            *bias = low | (i32::from(next()) << 16);
        }
        if format == 1 {
            net.output = [net.output[0]; OUTPUT_BUCKETS];
            net.output_bias = [net.output_bias[0]; OUTPUT_BUCKETS];
        }
        net
    }

    /// Why the weights are not a network this format's trainers write, if they are not.
    fn within_bounds(&self) -> Result<(), String> {
        if let Some((i, w)) = (self.output.iter().flatten().enumerate())
            .find(|(_, w)| w.unsigned_abs() > OUTPUT_WEIGHT_MAX.unsigned_abs())
        {
            return Err(format!(
                "output weight {} of bucket {} is {w}, outside ±{OUTPUT_WEIGHT_MAX} (±{:.2} as a float; \
                 `train` clips the output weights to ±1.98, as bullet does)",
                i % (2 * HIDDEN),
                i / (2 * HIDDEN),
                f64::from(OUTPUT_WEIGHT_MAX) / f64::from(QB)
            ));
        }
        let too_large = |w: &i16| w.unsigned_abs() > INPUT_WEIGHT_MAX.unsigned_abs();
        if let Some((i, w)) = (self.input.iter().flatten().enumerate()).find(|(_, w)| too_large(w))
        {
            return Err(format!(
                "input weight {i} (feature {}, neuron {}) is {w}, outside ±{INPUT_WEIGHT_MAX} (±1.98 as a float, where `train` clips it): not a network this format's trainers write",
                i / HIDDEN,
                i % HIDDEN
            ));
        }
        if let Some((i, w)) = (self.hidden_bias.iter().enumerate()).find(|(_, w)| too_large(w)) {
            return Err(format!(
                "hidden bias {i} is {w}, outside ±{INPUT_WEIGHT_MAX} (±1.98 as a float, where `train` clips it)"
            ));
        }
        if let Some((bucket, bias)) = (self.output_bias.iter().enumerate())
            .find(|(_, b)| b.unsigned_abs() > OUTPUT_BIAS_MAX.unsigned_abs())
        {
            return Err(format!(
                "output bias {bias} of bucket {bucket} is outside ±{OUTPUT_BIAS_MAX} ({} centipawns)",
                OUTPUT_BIAS_MAX / (QA * QB) * SCALE
            ));
        }
        Ok(())
    }

    /// The network as a file: format 3 when mirrored, else format 1 when every bucket's output
    /// layer is the same, else 2.
    pub fn to_bytes(&self) -> Vec<u8> {
        let one = self.has_one_output() && !self.mirrored;
        let format: u32 = if self.mirrored {
            3
        } else if one {
            1
        } else {
            2
        };
        let mut out = Vec::with_capacity(FILE_BYTES);
        out.extend_from_slice(FORMAT_MAGIC);
        out.extend_from_slice(&format.to_le_bytes());
        out.extend_from_slice(&(HIDDEN as u32).to_le_bytes());
        for w in self.input.iter().flatten().chain(&self.hidden_bias) {
            out.extend_from_slice(&w.to_le_bytes());
        }
        let buckets = if one { 1 } else { OUTPUT_BUCKETS };
        if !one {
            out.extend_from_slice(&(OUTPUT_BUCKETS as u32).to_le_bytes());
        }
        for w in self.output[..buckets].iter().flatten() {
            out.extend_from_slice(&w.to_le_bytes());
        }
        for bias in &self.output_bias[..buckets] {
            out.extend_from_slice(&bias.to_le_bytes());
        }
        out
    }

    /// The evaluation for the side to move, centipawns, from the accumulator's two halves
    /// (`us`: the side to move's, `them`: the other's) on a board of `pieces` pieces: the
    /// output in centipawns, kept below every mate score whatever the weights (a static
    /// evaluation that read as a mate would be printed and stored as one).
    #[inline]
    pub fn evaluate(&self, us: &[i16; HIDDEN], them: &[i16; HIDDEN], pieces: u32) -> Score {
        let bound = i64::from(crate::engine::score::MATE_BOUND - 1);
        self.output_centipawns(us, them, output_bucket(pieces))
            .clamp(-bound, bound) as Score
    }

    /// Output bucket `bucket`'s value in centipawns, exact.
    #[inline]
    pub fn output_centipawns(
        &self,
        us: &[i16; HIDDEN],
        them: &[i16; HIDDEN],
        bucket: usize,
    ) -> i64 {
        // SCReLU: clamp to [0, QA], square (units QA²), times the output weight (QB), as
        // c · (c · w). Every output weight is within ±OUTPUT_WEIGHT_MAX (`from_bytes` refuses
        // others), so c · w fits in i16 and each half's sum in i32: `screlu_dot` is the field's
        // i16 multiply then i16 × i16 → i32 multiply-add, exactly the integer c² · w summed
        // (the same scores as summing in i64).
        let half = |acc: &[i16; HIDDEN], weights: &[i16]| screlu_dot(acc, weights);
        let weights = &self.output[bucket];
        let sum =
            i64::from(half(us, &weights[..HIDDEN])) + i64::from(half(them, &weights[HIDDEN..]));
        // Back to units of QA · QB, add the bias, then to centipawns.
        let out = sum / i64::from(QA) + i64::from(self.output_bias[bucket]);
        out * i64::from(SCALE) / i64::from(QA * QB)
    }
}

/// One half of the output layer: `Σ clamp(a, 0, QA)² · w` over the hidden sums `acc` and their
/// output weights, as `c · (c · w)` (`output_centipawns`), in i16/i32 arithmetic. With AVX2 (the
/// engine is built for the machine it runs on) 16 sums at a time: the multiply of 16-bit lanes
/// and the multiply-add of their pairs, the field's SCReLU kernel; the compiler's own
/// vectorisation of the loop below stayed at 128 bits and cost about 5% of `bench`. Both give
/// exactly the same sum (the tests run whichever this build has against i64 arithmetic).
#[inline]
fn screlu_dot(acc: &[i16; HIDDEN], weights: &[i16]) -> i32 {
    assert_eq!(weights.len(), HIDDEN);
    #[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
    // SAFETY: this build was compiled for AVX2 (the whole binary uses it), so the processor
    // running it has it.
    return unsafe { screlu_dot_avx2(acc, weights) };
    #[cfg(not(all(target_arch = "x86_64", target_feature = "avx2")))]
    acc.iter()
        .zip(weights)
        .map(|(&a, &w)| {
            let c = a.clamp(0, QA as i16);
            i32::from(c * w) * i32::from(c)
        })
        .sum()
}

/// `screlu_dot` in AVX2, 16 lanes at a time.
#[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
#[target_feature(enable = "avx2")]
fn screlu_dot_avx2(acc: &[i16; HIDDEN], weights: &[i16]) -> i32 {
    use std::arch::x86_64::{
        __m256i, _mm_add_epi32, _mm_cvtsi128_si32, _mm_shuffle_epi32, _mm256_add_epi32,
        _mm256_castsi256_si128, _mm256_extracti128_si256, _mm256_loadu_si256, _mm256_madd_epi16,
        _mm256_max_epi16, _mm256_min_epi16, _mm256_mullo_epi16, _mm256_set1_epi16,
        _mm256_setzero_si256,
    };
    let (zero, top) = (_mm256_setzero_si256(), _mm256_set1_epi16(QA as i16));
    let mut sum = _mm256_setzero_si256();
    for (a, w) in acc.chunks_exact(16).zip(weights.chunks_exact(16)) {
        // SAFETY: each chunk is exactly 16 i16, the 32 bytes an unaligned load reads.
        let (a, w) = unsafe {
            (
                _mm256_loadu_si256(a.as_ptr().cast::<__m256i>()),
                _mm256_loadu_si256(w.as_ptr().cast::<__m256i>()),
            )
        };
        let c = _mm256_min_epi16(_mm256_max_epi16(a, zero), top);
        sum = _mm256_add_epi32(sum, _mm256_madd_epi16(_mm256_mullo_epi16(c, w), c));
    }
    let s = _mm_add_epi32(
        _mm256_castsi256_si128(sum),
        _mm256_extracti128_si256::<1>(sum),
    );
    let s = _mm_add_epi32(s, _mm_shuffle_epi32::<0b01_00_11_10>(s));
    let s = _mm_add_epi32(s, _mm_shuffle_epi32::<0b10_11_00_01>(s));
    _mm_cvtsi128_si32(s)
}

/// FNV-1a (64 bits) of `bytes`: the checksum a network's provenance file names.
pub fn checksum(bytes: &[u8]) -> u64 {
    checksum_on(CHECKSUM_START, bytes)
}

/// FNV-1a's state before any byte.
pub const CHECKSUM_START: u64 = 0xcbf2_9ce4_8422_2325;

/// FNV-1a continued from `state` (the checksum of the bytes before) over `bytes`: the checksum
/// of a file written piece by piece.
pub fn checksum_on(state: u64, bytes: &[u8]) -> u64 {
    bytes.iter().fold(state, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}
