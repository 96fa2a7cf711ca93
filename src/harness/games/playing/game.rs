//! One game between two players: the rules of chess end it (checkmate, stalemate, threefold
//! repetition, the fifty-move rule, insufficient material), or a player's failure (a flag
//! fall, a crash, a hang, an illegal move: that side loses, with the reason), or adjudication.

use std::collections::BTreeMap;

use cozy_chess::{Color, Piece};
use serde::{Deserialize, Serialize};

use crate::engine::eval::EvalKind;
use crate::engine::notation;
use crate::engine::position::Position;
use crate::engine::score::Score;
use crate::harness::games::book::openings::Opening;
use crate::harness::games::clock::control::{Control, PlayerControl, SideClock};
use crate::harness::games::playing::adjudication::Adjudication;
use crate::harness::games::playing::player::{Failure, Player, Reply};
use crate::harness::games::rating::stats::Outcome;

/// One move of a game as played.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MoveRecord {
    /// The move, UCI.
    #[serde(rename = "move")]
    pub mv: String,
    /// The mover's score, centipawns (searchlab's mate scores), when the player gave one.
    pub score: Option<Score>,
    pub depth: u32,
    pub nodes: u64,
    pub time_ms: u64,
}

/// What one side did over a game.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SideSummary {
    pub moves: u32,
    pub nodes: u64,
    /// Mean depth per move.
    pub mean_depth: f64,
    /// Total thinking time.
    pub time_ms: u64,
}

/// A finished game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameRecord {
    pub white: String,
    pub black: String,
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub result: String,
    /// Why it ended, in words ("checkmate", "Black lost on time", ...).
    pub reason: String,
    /// The PGN `Termination` tag: normal, time forfeit, adjudication, rules infraction,
    /// abandoned.
    pub termination: String,
    /// The moves after the opening's book moves.
    pub moves: Vec<MoveRecord>,
    /// White's and Black's summaries.
    pub sides: [SideSummary; 2],
}

impl GameRecord {
    /// Why the game ended by a player's failure (a crash, a hang, an illegal move, a loss on
    /// time), if it did: its reason in words.
    pub fn failure(&self) -> Option<&str> {
        matches!(
            self.termination.as_str(),
            "abandoned" | "time forfeit" | "rules infraction"
        )
        .then_some(self.reason.as_str())
    }

    /// The result for the side labelled `label`.
    pub fn outcome_of(&self, label: &str) -> Outcome {
        let white = match self.result.as_str() {
            "1-0" => Outcome::Win,
            "0-1" => Outcome::Loss,
            _ => Outcome::Draw,
        };
        if self.white == label {
            white
        } else {
            white.reversed()
        }
    }
}

/// How a game ended.
struct End {
    /// The winner, `None` for a draw.
    winner: Option<Color>,
    reason: String,
    termination: &'static str,
}

fn colour_name(colour: Color) -> &'static str {
    match colour {
        Color::White => "White",
        Color::Black => "Black",
    }
}

/// The side can mate with what it has left (FIDE 6.9: a flag fall is a draw when the
/// opponent cannot mate "by any possible series of legal moves"; a lone king or a king and
/// one minor piece cannot).
fn can_mate(position: &Position, side: Color) -> bool {
    let board = position.board();
    let own = board.colors(side);
    let heavy =
        (board.pieces(Piece::Pawn) | board.pieces(Piece::Rook) | board.pieces(Piece::Queen)) & own;
    let minors = (board.pieces(Piece::Knight) | board.pieces(Piece::Bishop)) & own;
    !heavy.is_empty() || minors.len() >= 2
}

/// The end the rules give the current position, if any.
fn rules_end(position: &Position, hashes: &[u64]) -> Option<End> {
    let board = position.board();
    let draw = |reason: &str| End {
        winner: None,
        reason: reason.into(),
        termination: "normal",
    };
    if !board.generate_moves(|_| true) {
        return Some(if position.in_check() {
            let winner = !board.side_to_move();
            End {
                winner: Some(winner),
                reason: format!("{} mates", colour_name(winner)),
                termination: "normal",
            }
        } else {
            draw("stalemate")
        });
    }
    if position.insufficient_material() {
        return Some(draw("insufficient material"));
    }
    if board.halfmove_clock() >= 100 {
        return Some(draw("fifty-move rule"));
    }
    let hash = board.hash();
    if hashes.iter().filter(|&&h| h == hash).count() >= 3 {
        return Some(draw("threefold repetition"));
    }
    None
}

/// The `go` command for the side to move, with both clocks as UCI gives them. Under time odds
/// each side's own clock and increment; an opponent without a clock (a node or depth limit)
/// is given the mover's.
fn go_command(sides: &[PlayerControl; 2], clocks: &[SideClock; 2], mover: Color) -> String {
    let m = mover as usize;
    match sides[m].control {
        Control::Clock { moves, .. } => {
            let side = |c: usize| match sides[c].control {
                Control::Clock { inc_ms, .. } => (clocks[c].left_ms.max(0), inc_ms),
                _ => match sides[m].control {
                    Control::Clock { inc_ms, .. } => (clocks[m].left_ms.max(0), inc_ms),
                    _ => unreachable!("the mover has a clock"),
                },
            };
            let ((wtime, winc), (btime, binc)) = (side(0), side(1));
            let mut go = format!("go wtime {wtime} btime {btime} winc {winc} binc {binc}");
            if let Some(period) = moves {
                let made = clocks[m].moves;
                go.push_str(&format!(" movestogo {}", period - made % period));
            }
            go
        }
        Control::Movetime(ms) => format!("go movetime {ms}"),
        Control::Nodes(n) => format!("go nodes {n}"),
        Control::Depth(d) => format!("go depth {d}"),
    }
}

/// The rules a match plays by.
#[derive(Clone, Debug)]
pub struct Rules {
    pub control: Control,
    pub adjudication: Adjudication,
    /// Time a move may overrun its clock before it counts as lost on time, ms.
    pub margin_ms: u64,
    /// Time an in-process player keeps in hand per move for the machine's delays (its UCI
    /// `Move Overhead`), ms.
    pub overhead_ms: u64,
    /// Players with limits of their own (time or node odds), by label.
    pub own: BTreeMap<String, PlayerControl>,
}

impl Rules {
    /// What the player labelled `label` plays under.
    pub fn of(&self, label: &str) -> PlayerControl {
        self.own.get(label).copied().unwrap_or(PlayerControl {
            control: self.control,
            margin_ms: self.margin_ms,
        })
    }
}

/// Play one game from `opening`: `players[0]` (labelled `labels[0]`) has White.
/// The end of a game whose `mover` overran its clock: a loss, or a draw when the opponent
/// cannot mate (FIDE 6.9).
fn flag_fall(position: &Position, mover: Color, label: &str) -> End {
    let opponent = !mover;
    if can_mate(position, opponent) {
        End {
            winner: Some(opponent),
            reason: format!("{} ({label}) lost on time", colour_name(mover)),
            termination: "time forfeit",
        }
    } else {
        End {
            winner: None,
            reason: format!(
                "{} ({label}) lost on time, but {} cannot mate",
                colour_name(mover),
                colour_name(opponent)
            ),
            termination: "time forfeit",
        }
    }
}

/// The end an adjudication decided after `mover`'s move: a draw (`None`), or a resignation.
fn adjudicated(verdict: Option<bool>, mover: Color) -> End {
    match verdict {
        None => End {
            winner: None,
            reason: "adjudicated a draw".into(),
            termination: "adjudication",
        },
        Some(last_mover_wins) => {
            let winner = if last_mover_wins { mover } else { !mover };
            End {
                winner: Some(winner),
                reason: format!("{} resigns (adjudicated)", colour_name(!winner)),
                termination: "adjudication",
            }
        }
    }
}

impl GameRecord {
    /// A game about to be played by `labels` (White, Black).
    fn between(labels: [&str; 2]) -> Self {
        GameRecord {
            white: labels[0].to_string(),
            black: labels[1].to_string(),
            result: String::new(),
            reason: String::new(),
            termination: String::new(),
            moves: Vec::new(),
            sides: Default::default(),
        }
    }

    /// The game ended (`end`): its result, reason and termination, each side's mean depth.
    fn finish(&mut self, end: End) {
        for summary in &mut self.sides {
            if summary.moves > 0 {
                summary.mean_depth /= f64::from(summary.moves);
            }
        }
        self.result = match end.winner {
            Some(Color::White) => "1-0",
            Some(Color::Black) => "0-1",
            None => "1/2-1/2",
        }
        .to_string();
        self.reason = end.reason;
        self.termination = end.termination.to_string();
    }

    /// Count a move of the side at `index` (0: White) with what its player reported.
    fn note(&mut self, index: usize, text: &str, reply: &Reply) {
        let summary = &mut self.sides[index];
        summary.moves += 1;
        summary.nodes += reply.nodes;
        summary.time_ms += reply.elapsed_ms;
        summary.mean_depth += f64::from(reply.depth);
        self.moves.push(MoveRecord {
            mv: text.to_string(),
            score: reply.score,
            depth: reply.depth,
            nodes: reply.nodes,
            time_ms: reply.elapsed_ms,
        });
    }
}

pub fn play(
    opening: &Opening,
    players: [&mut Player; 2],
    labels: [&str; 2],
    rules: &Rules,
) -> GameRecord {
    let mut position = Position::new(opening.board(), EvalKind::Full);
    let mut hashes = vec![position.board().hash()];
    for mv in opening.book() {
        position.make(mv);
        hashes.push(position.board().hash());
    }
    let mut uci_moves = opening.moves.clone();
    let mut record = GameRecord::between(labels);
    let sides = labels.map(|label| rules.of(label));
    let mut clocks = sides.map(|side| SideClock::start(&side.control));
    let mut started = [false, false];
    let mut scores: Vec<Option<Score>> = Vec::new();
    let end = loop {
        if let Some(end) = rules_end(&position, &hashes) {
            break end;
        }
        let mover = position.board().side_to_move();
        let index = mover as usize;
        let fail = |failure: Failure| End {
            winner: Some(!mover),
            termination: match failure {
                Failure::Illegal(_) => "rules infraction",
                Failure::Hang(_) => "time forfeit",
                Failure::Crash(_) => "abandoned",
            },
            reason: format!("{} ({}) {failure}", colour_name(mover), labels[index]),
        };
        if !started[index] {
            started[index] = true;
            if let Err(failure) = players[index].new_game() {
                break fail(failure);
            }
        }
        let side = sides[index];
        let limits = clocks[index].limits(&side.control, rules.overhead_ms);
        let go = go_command(&sides, &clocks, mover);
        let patience = clocks[index].patience(&side.control, side.margin_ms);
        let reply = match players[index].think(
            &position,
            &opening.fen,
            &uci_moves,
            limits,
            &go,
            patience,
        ) {
            Ok(reply) => reply,
            Err(failure) => break fail(failure),
        };
        let text = notation::uci(position.board(), reply.mv);
        record.note(index, &text, &reply);
        if !clocks[index].charge(&side.control, reply.elapsed_ms, side.margin_ms) {
            break flag_fall(&position, mover, labels[index]);
        }
        position.make(reply.mv);
        hashes.push(position.board().hash());
        uci_moves.push(text);
        scores.push(reply.score);
        let full_moves = u32::from(position.board().fullmove_number());
        if let Some(verdict) = rules.adjudication.verdict(&scores, full_moves) {
            break adjudicated(verdict, mover);
        }
    };
    record.finish(end);
    record
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::spec;
    use crate::harness::external::EngineSpec;

    fn variant_player(spec_text: &str) -> Player {
        Player::Variant {
            config: Box::new(spec::parse(spec_text).unwrap()),
            hash_mb: 1,
            state: None,
        }
    }

    fn opening(fen: &str) -> Opening {
        Opening {
            line: 1,
            fen: fen.to_string(),
            moves: Vec::new(),
        }
    }

    fn rules(control: Control) -> Rules {
        Rules {
            control,
            adjudication: Adjudication::default(),
            margin_ms: 0,
            overhead_ms: crate::engine::config::MOVE_OVERHEAD_MS,
            own: BTreeMap::new(),
        }
    }

    #[test]
    fn a_mate_in_one_ends_the_game_by_the_rules() {
        let mut a = variant_player("classic");
        let mut b = variant_player("classic");
        let game = play(
            &opening("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1"),
            [&mut a, &mut b],
            ["a", "b"],
            &rules(Control::Depth(3)),
        );
        assert_eq!(game.result, "1-0");
        assert_eq!(game.reason, "White mates");
        assert_eq!(game.moves.len(), 1);
        assert_eq!(game.moves[0].mv, "d1d8");
        assert_eq!(game.outcome_of("a"), Outcome::Win);
        assert_eq!(game.outcome_of("b"), Outcome::Loss);
    }

    #[test]
    fn bare_kings_and_repetitions_are_draws() {
        let mut a = variant_player("classic");
        let mut b = variant_player("classic");
        let game = play(
            &opening("8/8/4k3/8/8/3K4/8/8 w - - 0 1"),
            [&mut a, &mut b],
            ["a", "b"],
            &rules(Control::Depth(2)),
        );
        assert_eq!(
            (game.result.as_str(), game.reason.as_str()),
            ("1/2-1/2", "insufficient material")
        );
        // A book that repeats the start position twice: the third occurrence ends the game.
        let book = Opening {
            line: 1,
            fen: Board::default().to_string(),
            moves: "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8"
                .split(' ')
                .map(String::from)
                .collect(),
        };
        let game = play(
            &book,
            [&mut a, &mut b],
            ["a", "b"],
            &rules(Control::Depth(1)),
        );
        assert_eq!(game.reason, "threefold repetition");
        assert!(game.moves.is_empty());
    }

    use cozy_chess::Board;

    #[test]
    fn a_crashing_engine_loses_with_its_reason() {
        let mut good = variant_player("classic");
        let mut bad = Player::Engine {
            spec: EngineSpec {
                command: "/bin/false".into(),
                options: vec![],
                name: None,
                dir: None,
                timeout_ms: None,
                program_checksum: None,
                restart: false,
            },
            session: None,
        };
        let game = play(
            &opening(&Board::default().to_string()),
            [&mut bad, &mut good],
            ["bad", "good"],
            &rules(Control::Nodes(1000)),
        );
        assert_eq!(game.result, "0-1");
        assert_eq!(game.termination, "abandoned");
        assert!(
            game.reason.contains("White (bad) crashed"),
            "{}",
            game.reason
        );
    }

    #[test]
    fn an_engine_answering_an_illegal_move_loses_by_rules_infraction() {
        let mut liar = Player::Engine {
            spec: EngineSpec {
                command: "sh -c 'while read l; do case \"$l\" in uci) echo uciok;; isready) echo readyok;; go*) echo bestmove e2e5;; quit) exit;; esac; done'".into(),
                options: vec![],
                name: None,
                dir: None,
                timeout_ms: None,
                program_checksum: None,
                restart: false,
            },
            session: None,
        };
        let mut good = variant_player("classic");
        let game = play(
            &opening(&Board::default().to_string()),
            [&mut liar, &mut good],
            ["liar", "good"],
            &rules(Control::Nodes(1000)),
        );
        assert_eq!(game.result, "0-1");
        assert_eq!(game.termination, "rules infraction");
        assert!(game.reason.contains("e2e5"), "{}", game.reason);
    }

    #[test]
    fn a_silent_engine_loses_on_time_and_a_flag_fall_against_a_lone_king_is_a_draw() {
        let mut silent = Player::Engine {
            spec: EngineSpec {
                command: "sh -c 'while read l; do case \"$l\" in uci) echo uciok;; isready) echo readyok;; quit) exit;; esac; done'".into(),
                options: vec![],
                name: None,
                dir: None,
                timeout_ms: None,
                program_checksum: None,
                restart: false,
            },
            session: None,
        };
        let mut good = variant_player("classic");
        let game = play(
            &opening(&Board::default().to_string()),
            [&mut silent, &mut good],
            ["silent", "good"],
            &rules(Control::Movetime(10)),
        );
        assert_eq!(game.result, "0-1");
        assert_eq!(game.termination, "time forfeit");
        let position = Position::new(
            crate::engine::fen::parse_fen("8/8/4k3/8/8/3K4/3P4/8 w - - 0 1").unwrap(),
            EvalKind::Full,
        );
        assert!(can_mate(&position, Color::White));
        assert!(!can_mate(&position, Color::Black));
    }
}
