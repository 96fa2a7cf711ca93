//! The float network the trainer fits, its gradient, AdamW, and its quantisation into the
//! engine's integer network (`engine::nnue::Network`).
//!
//! - Output: `out = w2[k]·[h_stm, h_ntm] + b2[k]` with `h = clamp(a, 0, 1)²` (SCReLU) of each
//!   perspective's `a = b1 + Σ w1[feature]`; `out · 400` is the evaluation in centipawns. `k`
//!   is the position's output bucket (`engine::nnue::output_bucket`) when the net has
//!   `OUTPUT_BUCKETS` output layers, 0 when it has one (the form of generations 1 to 4).
//! - Loss: the mean of `(sigmoid(out · 400 / scale) − target)²`, `target = λ·result +
//!   (1 − λ)·sigmoid(score / scale)`: a blend of the game's result and the search's score, both
//!   as an expected score (the form of the field's trainers; `scale` 400 and λ are stated in
//!   every training log).
//! - AdamW (Loshchilov & Hutter, 2019): Adam's moments with decoupled weight decay.
//! - The input weights, hidden biases and output weights are kept within ±1.98 (bullet clips
//!   the same way for this quantisation): an accumulator of 32 pieces fits in i16 once
//!   multiplied by `QA`, and the output layer's products fit the engine's i16/i32 arithmetic
//!   (`engine::nnue::network::OUTPUT_WEIGHT_MAX`).

use serde::{Deserialize, Serialize};

use super::format::Record;
use crate::engine::nnue::{HIDDEN, INPUTS, Network, OUTPUT_BUCKETS, QA, QB, SCALE, output_bucket};

/// The bound of every weight and of the hidden biases (not the output bias).
pub const CLIP: f32 = 1.98;

/// Every parameter of the float network, in one flat vector: input weights (`INPUTS` rows of
/// `HIDDEN`), hidden biases, each output layer's weights (`2·HIDDEN`), each output layer's
/// bias. The number of output layers (1 or `OUTPUT_BUCKETS`) follows from the length.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Params(pub Vec<f32>);

const W1: usize = 0;
const B1: usize = INPUTS * HIDDEN;
const W2: usize = B1 + HIDDEN;

/// Number of parameters of a net of `outputs` output layers.
pub const fn count(outputs: usize) -> usize {
    W2 + outputs * (2 * HIDDEN + 1)
}

/// How the loss reads a position.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct LossShape {
    /// Weight of the game's result in the target (the rest is the search's score).
    pub lambda: f32,
    /// Centipawns per unit of the sigmoid (score → expected score).
    pub scale: f32,
    /// The inputs mirrored file for file where a perspective's king is on the e to h files
    /// (a mirrored network, `engine::nnue::flips`).
    #[serde(default)]
    pub mirrored: bool,
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

impl Params {
    /// Small random weights from `next` (uniform in ±`bound`, bound ~ 1/√fan-in), zero biases,
    /// for a net of `outputs` output layers (1 or `OUTPUT_BUCKETS`).
    pub fn init(outputs: usize, mut next: impl FnMut() -> f32) -> Params {
        assert!(
            outputs == 1 || outputs == OUTPUT_BUCKETS,
            "{outputs} output layers"
        );
        let mut p = vec![0.0f32; count(outputs)];
        let input = 1.0 / 32f32.sqrt();
        let output = 1.0 / ((2 * HIDDEN) as f32).sqrt();
        for w in &mut p[W1..B1] {
            *w = (next() * 2.0 - 1.0) * input;
        }
        let b2 = W2 + outputs * 2 * HIDDEN;
        for w in &mut p[W2..b2] {
            *w = (next() * 2.0 - 1.0) * output;
        }
        Params(p)
    }

    /// The float net a quantised `net` stands for, with `outputs` output layers: each weight
    /// divided by its quantisation step, so training can go on from a shipped network (the next
    /// generation fine-tuned from the one before, as Stockfish's trainers resume from a
    /// previous net) instead of from random weights. One output layer is taken only from a
    /// net whose buckets are all the same.
    pub fn from_network(net: &Network, outputs: usize) -> Result<Params, String> {
        if outputs == 1 && !net.has_one_output() {
            return Err(format!(
                "the network has {OUTPUT_BUCKETS} different output layers: start a net of one output from a net of one output, or train with --output-buckets {OUTPUT_BUCKETS}"
            ));
        }
        let mut p = vec![0.0f32; count(outputs)];
        for (f, row) in net.input.iter().enumerate() {
            for (i, &w) in row.iter().enumerate() {
                p[W1 + f * HIDDEN + i] = f32::from(w) / QA as f32;
            }
        }
        for (i, &b) in net.hidden_bias.iter().enumerate() {
            p[B1 + i] = f32::from(b) / QA as f32;
        }
        let b2 = W2 + outputs * 2 * HIDDEN;
        for k in 0..outputs {
            for (i, &w) in net.output[k].iter().enumerate() {
                p[W2 + k * 2 * HIDDEN + i] = f32::from(w) / QB as f32;
            }
            p[b2 + k] = net.output_bias[k] as f32 / (QA * QB) as f32;
        }
        Ok(Params(p))
    }

    /// The number of output layers.
    pub fn outputs(&self) -> usize {
        (self.0.len() - W2) / (2 * HIDDEN + 1)
    }

    /// Where the output weights end and the output biases begin.
    fn b2(&self) -> usize {
        W2 + self.outputs() * 2 * HIDDEN
    }

    /// The output layer a position of `pieces` pieces is read by.
    fn output_of(&self, pieces: usize) -> usize {
        if self.outputs() == 1 {
            0
        } else {
            output_bucket(pieces as u32)
        }
    }

    /// The hidden sums of the active `features`.
    fn hidden(&self, features: &[u16]) -> [f32; HIDDEN] {
        let mut a = [0.0f32; HIDDEN];
        a.copy_from_slice(&self.0[B1..W2]);
        for &f in features {
            let row = &self.0[W1 + f as usize * HIDDEN..W1 + (f as usize + 1) * HIDDEN];
            a.iter_mut().zip(row).for_each(|(a, w)| *a += w);
        }
        a
    }

    /// The output for one position (before the `· 400`) by output layer `k`, with the two
    /// perspectives' sums.
    fn forward(&self, stm: &[u16], ntm: &[u16], k: usize) -> (f32, [f32; HIDDEN], [f32; HIDDEN]) {
        let (a, b) = (self.hidden(stm), self.hidden(ntm));
        let screlu = |x: f32| {
            let c = x.clamp(0.0, 1.0);
            c * c
        };
        let w2 = &self.0[W2 + k * 2 * HIDDEN..W2 + (k + 1) * 2 * HIDDEN];
        let mut out = self.0[self.b2() + k];
        for i in 0..HIDDEN {
            out += screlu(a[i]) * w2[i] + screlu(b[i]) * w2[HIDDEN + i];
        }
        (out, a, b)
    }

    /// The evaluation of a record for its side to move, centipawns (for tests and reports),
    /// its inputs `mirrored` or not.
    pub fn evaluate(&self, record: &Record, mirrored: bool) -> f32 {
        let (mut stm, mut ntm) = ([0u16; 32], [0u16; 32]);
        let n = record.features(&mut stm, &mut ntm, mirrored);
        self.forward(&stm[..n], &ntm[..n], self.output_of(n)).0 * SCALE as f32
    }

    /// Add the gradient of `records`' summed loss to `grad` (same layout as the parameters);
    /// return the summed loss.
    pub fn gradient(&self, records: &[Record], shape: LossShape, grad: &mut [f32]) -> f64 {
        let mut total = 0.0f64;
        let b2 = self.b2();
        let (mut stm, mut ntm) = ([0u16; 32], [0u16; 32]);
        for record in records {
            let n = record.features(&mut stm, &mut ntm, shape.mirrored);
            let layer = self.output_of(n);
            let w2_at = W2 + layer * 2 * HIDDEN;
            let w2 = &self.0[w2_at..w2_at + 2 * HIDDEN];
            let (out, a, b) = self.forward(&stm[..n], &ntm[..n], layer);
            let k = SCALE as f32 / shape.scale;
            let predicted = sigmoid(out * k);
            let target = shape.lambda * record.result()
                + (1.0 - shape.lambda) * sigmoid(f32::from(record.score()) / shape.scale);
            let error = predicted - target;
            total += f64::from(error * error);
            let g = 2.0 * error * predicted * (1.0 - predicted) * k;
            grad[b2 + layer] += g;
            for (half, sums, features) in [(0, &a, &stm[..n]), (HIDDEN, &b, &ntm[..n])] {
                for i in 0..HIDDEN {
                    let x = sums[i];
                    let c = x.clamp(0.0, 1.0);
                    grad[w2_at + half + i] += g * c * c;
                }
                // d out / d a = w2 · 2a inside (0, 1), 0 outside.
                let mut da = [0.0f32; HIDDEN];
                for i in 0..HIDDEN {
                    let x = sums[i];
                    if x > 0.0 && x < 1.0 {
                        da[i] = g * w2[half + i] * 2.0 * x;
                    }
                }
                for i in 0..HIDDEN {
                    grad[B1 + i] += da[i];
                }
                for &f in features {
                    let row = &mut grad[W1 + f as usize * HIDDEN..W1 + (f as usize + 1) * HIDDEN];
                    row.iter_mut().zip(&da).for_each(|(r, d)| *r += d);
                }
            }
        }
        total
    }

    /// The mean loss over `records`.
    pub fn loss(&self, records: &[Record], shape: LossShape) -> f64 {
        if records.is_empty() {
            return 0.0;
        }
        let mut scratch = vec![0.0f32; self.0.len()];
        self.gradient(records, shape, &mut scratch) / records.len() as f64
    }

    /// The output biases, output units.
    pub fn output_biases(&self) -> &[f32] {
        &self.0[self.b2()..]
    }

    /// The engine's integer network (a net of one output layer copied into every bucket),
    /// reading its inputs `mirrored` or not.
    pub fn quantise(&self, mirrored: bool) -> Network {
        let mut net = Network::zeroed();
        net.mirrored = mirrored;
        let q = |x: f32, by: i32| (x * by as f32).round().clamp(-32767.0, 32767.0) as i16;
        for (f, row) in net.input.iter_mut().enumerate() {
            for (i, w) in row.iter_mut().enumerate() {
                *w = q(self.0[W1 + f * HIDDEN + i], QA);
            }
        }
        for i in 0..HIDDEN {
            net.hidden_bias[i] = q(self.0[B1 + i], QA);
        }
        let b2 = self.b2();
        for bucket in 0..OUTPUT_BUCKETS {
            let k = if self.outputs() == 1 { 0 } else { bucket };
            for i in 0..2 * HIDDEN {
                net.output[bucket][i] = q(self.0[W2 + k * 2 * HIDDEN + i], QB);
            }
            net.output_bias[bucket] = (self.0[b2 + k] * (QA * QB) as f32).round() as i32;
        }
        net
    }
}

/// AdamW's state: the two moments of every parameter and the step count.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AdamW {
    pub m: Vec<f32>,
    pub v: Vec<f32>,
    pub step: u64,
}

/// AdamW's constants.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct AdamWSettings {
    pub beta1: f32,
    pub beta2: f32,
    pub epsilon: f32,
    /// Decoupled weight decay, applied as `w -= lr · decay · w`.
    pub decay: f32,
}

impl Default for AdamWSettings {
    fn default() -> Self {
        AdamWSettings {
            beta1: 0.9,
            beta2: 0.999,
            epsilon: 1e-8,
            decay: 0.01,
        }
    }
}

impl AdamW {
    /// The state for `count` parameters.
    pub fn new(count: usize) -> AdamW {
        AdamW {
            m: vec![0.0; count],
            v: vec![0.0; count],
            step: 0,
        }
    }

    /// One step of learning rate `lr` along the mean gradient `grad`.
    pub fn step(&mut self, params: &mut Params, grad: &[f32], lr: f32, s: AdamWSettings) {
        self.step += 1;
        let t = self.step as i32;
        let (c1, c2) = (1.0 - s.beta1.powi(t), 1.0 - s.beta2.powi(t));
        let b2 = params.b2();
        for (i, w) in params.0.iter_mut().enumerate() {
            let g = grad[i];
            self.m[i] = s.beta1 * self.m[i] + (1.0 - s.beta1) * g;
            self.v[i] = s.beta2 * self.v[i] + (1.0 - s.beta2) * g * g;
            let update = (self.m[i] / c1) / ((self.v[i] / c2).sqrt() + s.epsilon);
            *w -= lr * (update + s.decay * *w);
            if i < b2 {
                *w = w.clamp(-CLIP, CLIP);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::nnue::Accumulator;
    use cozy_chess::Board;

    fn records() -> Vec<Record> {
        [
            (
                "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
                30,
                2,
            ),
            ("4k3/8/8/8/8/8/8/1N2KQ2 w - - 0 1", 1200, 2),
            ("4k3/8/8/8/8/8/8/1n2Kq2 w - - 0 1", -1200, 0),
            ("4k3/8/8/8/8/8/8/4K3 b - - 0 1", 0, 1),
        ]
        .iter()
        .map(|(fen, score, result)| Record::new(&fen.parse::<Board>().unwrap(), *score, *result))
        .collect()
    }

    fn seeded(seed: u64) -> impl FnMut() -> f32 {
        let mut state = seed;
        move || {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (state >> 40) as f32 / (1u64 << 24) as f32
        }
    }

    /// The analytic gradient matches finite differences of the loss, parameter by parameter,
    /// with one output layer and with a layer per bucket (the first record, 32 pieces, is read
    /// by the last bucket; the others, 3 and 4 pieces, by the first).
    #[test]
    fn the_gradient_matches_finite_differences() {
        for outputs in [1, OUTPUT_BUCKETS] {
            let mut params = Params::init(outputs, seeded(1));
            // Hidden sums inside (0, 1) where SCReLU has a slope.
            for w in &mut params.0[B1..W2] {
                *w = 0.3;
            }
            let data = records();
            let shape = LossShape {
                lambda: 0.25,
                scale: 400.0,
                mirrored: false,
            };
            let mut grad = vec![0.0f32; count(outputs)];
            params.gradient(&data, shape, &mut grad);
            let (mut stm, mut ntm) = ([0u16; 32], [0u16; 32]);
            let n = data[0].features(&mut stm, &mut ntm, false);
            let k = params.output_of(n);
            assert_eq!(k, if outputs == 1 { 0 } else { OUTPUT_BUCKETS - 1 });
            let (w2, b2) = (W2 + k * 2 * HIDDEN, params.b2());
            let probes = [
                W1 + stm[0] as usize * HIDDEN + 3,
                W1 + ntm[n - 1] as usize * HIDDEN + 7,
                B1 + 5,
                w2 + 2,
                w2 + HIDDEN + 9,
                b2 + k,
                W2 + 4,
                b2,
            ];
            for i in probes {
                let h = 1e-3f32;
                let mut up = params.clone();
                up.0[i] += h;
                let mut down = params.clone();
                down.0[i] -= h;
                let sum = |p: &Params| p.loss(&data, shape) * data.len() as f64;
                let numeric = (sum(&up) - sum(&down)) / (2.0 * f64::from(h));
                let analytic = f64::from(grad[i]);
                assert!(
                    (numeric - analytic).abs() <= 1e-3 + 0.02 * analytic.abs(),
                    "{outputs} outputs, parameter {i}: numeric {numeric}, analytic {analytic}"
                );
            }
            // A bucket no record is read by learns nothing.
            if outputs > 1 {
                assert!(
                    grad[W2 + 3 * 2 * HIDDEN..W2 + 4 * 2 * HIDDEN]
                        .iter()
                        .all(|g| *g == 0.0)
                );
                assert_eq!(grad[b2 + 3], 0.0);
            }
        }
    }

    /// AdamW on a small synthetic set lowers the loss.
    #[test]
    fn training_lowers_the_loss() {
        let mut params = Params::init(OUTPUT_BUCKETS, seeded(2));
        let data = records();
        let shape = LossShape {
            lambda: 0.5,
            scale: 400.0,
            mirrored: true,
        };
        let before = params.loss(&data, shape);
        let mut adam = AdamW::new(params.0.len());
        for _ in 0..200 {
            let mut grad = vec![0.0f32; params.0.len()];
            params.gradient(&data, shape, &mut grad);
            grad.iter_mut().for_each(|g| *g /= data.len() as f32);
            adam.step(&mut params, &grad, 0.01, AdamWSettings::default());
        }
        let after = params.loss(&data, shape);
        assert!(after < before * 0.5, "{before} -> {after}");
    }

    /// The quantised network evaluates as the float one, within the rounding of its weights,
    /// with one output layer and with a layer per bucket.
    #[test]
    fn the_quantised_network_evaluates_as_the_float_one() {
        for outputs in [1, OUTPUT_BUCKETS] {
            let mut params = Params::init(outputs, seeded(3));
            for w in &mut params.0[B1..W2] {
                *w = 0.2;
            }
            // Output weights of a trained net's size (a QB step, 1/64, is small beside them).
            let b2 = params.b2();
            for w in &mut params.0[W2..b2] {
                *w *= 8.0;
            }
            for (k, bias) in params.0[b2..].iter_mut().enumerate() {
                *bias = 0.05 - 0.01 * k as f32;
            }
            let net = params.quantise(false);
            assert_eq!(net.has_one_output(), outputs == 1);
            for fen in [
                "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
                "rnbqk2r/pppp1ppp/5n2/2b1p3/4P3/2N2N2/PPPP1PPP/R1BQKB1R b KQkq - 4 4",
                "4k3/8/8/8/8/8/3r4/1N2KQ2 w - - 0 1",
                "r3k3/pp6/8/8/8/8/PPP5/4K2R b - - 0 1",
            ] {
                let board: Board = fen.parse().unwrap();
                let float = params.evaluate(&Record::new(&board, 0, 1), false);
                let int = Accumulator::of(&board, &net).evaluate(&net, &board);
                assert!(
                    (float - int as f32).abs() <= 3.0 + 0.02 * float.abs(),
                    "{outputs} outputs, {fen}: float {float}, quantised {int}"
                );
            }
        }
    }

    /// The trainer's mirrored inputs are the engine's: a mirrored net, float and quantised,
    /// reads a position whose kings are both on the e to h files as the same net unmirrored
    /// reads its mirror image, and one whose kings are both on the a to d files as it stands.
    #[test]
    fn a_mirrored_net_reads_a_position_as_its_image() {
        let mut params = Params::init(OUTPUT_BUCKETS, seeded(3));
        params.0[B1..W2].iter_mut().for_each(|w| *w = 0.2);
        let b2 = params.b2();
        params.0[W2..b2].iter_mut().for_each(|w| *w *= 8.0);
        let (mirrored, plain) = (params.quantise(true), params.quantise(false));
        for (fen, read_as) in [
            (
                "4k3/8/8/8/8/8/3r4/1N2KQ2 w - - 0 1",
                "3k4/8/8/8/8/8/4r3/2QK2N1 w - - 0 1",
            ),
            (
                "r4rk1/ppp2ppp/2n5/8/8/5N2/PPP2PPP/R4RK1 b - - 0 1",
                "1kr4r/ppp2ppp/5n2/8/8/2N5/PPP2PPP/1KR4R b - - 0 1",
            ),
            (
                "2kr3r/ppp2ppp/8/8/8/8/PPP2PPP/2KR3R w - - 0 1",
                "2kr3r/ppp2ppp/8/8/8/8/PPP2PPP/2KR3R w - - 0 1",
            ),
        ] {
            let (board, image): (Board, Board) = (fen.parse().unwrap(), read_as.parse().unwrap());
            // The same sums in another order: equal to the float's rounding.
            let (read, as_image) = (
                params.evaluate(&Record::new(&board, 0, 1), true),
                params.evaluate(&Record::new(&image, 0, 1), false),
            );
            assert!(
                (read - as_image).abs() < 1e-3,
                "{fen}: {read} against {as_image}"
            );
            assert_eq!(
                Accumulator::of(&board, &mirrored).evaluate(&mirrored, &board),
                Accumulator::of(&image, &plain).evaluate(&plain, &image),
                "{fen}"
            );
        }
    }

    /// A shipped network read back as floats quantises to itself, weight for weight (each
    /// value is a multiple of its step), with one output layer and with a layer per bucket; a
    /// net whose buckets differ does not read as one output layer.
    #[test]
    fn a_network_read_back_as_floats_quantises_to_itself() {
        let embedded = &*crate::engine::nnue::embedded();
        let back = Params::from_network(embedded, OUTPUT_BUCKETS).unwrap();
        assert!(back.quantise(false) == *embedded);
        assert_eq!(
            Params::from_network(embedded, 1).is_err(),
            !embedded.has_one_output()
        );
        let mut params = Params::init(1, seeded(4));
        params.0[W2..].iter_mut().for_each(|w| *w *= 8.0);
        let one = params.quantise(false);
        let back = Params::from_network(&one, 1).unwrap();
        assert!(back.quantise(false) == one);
        assert!(
            Params::from_network(&one, OUTPUT_BUCKETS)
                .unwrap()
                .quantise(false)
                == one
        );
    }
}
