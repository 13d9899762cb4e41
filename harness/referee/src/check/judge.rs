//! Warnings about a legal move: things that cost games without breaking the protocol.

use std::time::Duration;

use quads_rules::{Move, Outcome, Position, Rules};

/// The warnings `mv` (legal in `before`) earns: more than half the time, a missed win in
/// one, a give that loses at once when a safe move existed.
pub(super) fn judge(
    before: &Position,
    mv: Move,
    rules: &Rules,
    took: Duration,
    limit: Duration,
) -> Vec<String> {
    let mut warnings = Vec::new();
    if took * 2 > limit {
        warnings.push(format!(
            "`{mv}` took {} ms, more than half of the {} ms allowed: leave room for a busy machine",
            took.as_millis(),
            limit.as_millis()
        ));
    }
    if wins(before, mv, rules) {
        return warnings;
    }
    if let Some(win) = before
        .legal_moves(rules)
        .into_iter()
        .find(|&m| wins(before, m, rules))
    {
        warnings.push(format!(
            "missed a win in one: `move {win}` wins here, `{mv}` does not"
        ));
        return warnings;
    }
    let after = before.play(mv, rules).expect("judged moves are legal");
    if let Some(reply) = winning_reply(&after, rules) {
        let safe = before.legal_moves(rules).into_iter().find(|&m| {
            let next = before.play(m, rules).expect("a legal move");
            next.outcome(rules).is_none() && winning_reply(&next, rules).is_none()
        });
        if let Some(safe) = safe {
            warnings.push(format!(
                "`{mv}` lets the opponent win at once with `move {reply}`; `move {safe}` gave nothing away"
            ));
        }
    }
    warnings
}

/// Whether `mv` wins the game for the player making it.
fn wins(before: &Position, mv: Move, rules: &Rules) -> bool {
    let mover = before.to_move();
    matches!(
        before.play(mv, rules).map(|p| p.outcome(rules)),
        Ok(Some(Outcome::Win(p))) if p == mover
    )
}

/// A move that wins at once for the player to move in `pos`, if there is one.
fn winning_reply(pos: &Position, rules: &Rules) -> Option<Move> {
    pos.legal_moves(rules)
        .into_iter()
        .find(|&m| wins(pos, m, rules))
}

#[cfg(test)]
mod tests {
    use super::*;

    const QUICK: Duration = Duration::from_millis(10);
    const LIMIT: Duration = Duration::from_millis(1000);

    fn judged(pos: &str, mv: &str, rules: &str) -> Vec<String> {
        let pos: Position = pos.parse().unwrap();
        judge(
            &pos,
            mv.parse().unwrap(),
            &rules.parse().unwrap(),
            QUICK,
            LIMIT,
        )
    }

    #[test]
    fn a_missed_win_in_one_is_named_with_the_winning_move() {
        let pos = "..../..../..../BDRFBLQHBLRF. BDQH";
        assert_eq!(judged(pos, "D1", "quads"), Vec::<String>::new());
        assert_eq!(
            judged(pos, "A2 SDRF", "quads"),
            ["missed a win in one: `move D1` wins here, `A2 SDRF` does not"]
        );
        assert_eq!(
            judged(pos, "D1 SDRF", "quads,claim=announce"),
            ["missed a win in one: `move D1 quarto` wins here, `D1 SDRF` does not"]
        );
    }

    #[test]
    fn a_give_that_loses_at_once_is_named_when_a_safe_one_existed() {
        // Row 1 holds three big pieces with D1 open: giving a big piece loses there.
        let pos = "..../..../..../BDRFBLQHBLRF. SDQH";
        assert_eq!(
            judged(pos, "A4 BDQH", "classic"),
            ["`A4 BDQH` lets the opponent win at once with `move D1`; `move D1 SDRF` gave nothing away"]
        );
        assert_eq!(judged(pos, "A4 SLRH", "classic"), Vec::<String>::new());
    }

    #[test]
    fn slow_answers_are_named() {
        let pos: Position = "..../..../..../.... BDRF".parse().unwrap();
        let w = judge(
            &pos,
            "A1 SLQH".parse().unwrap(),
            &Rules::QUADS,
            Duration::from_millis(600),
            LIMIT,
        );
        assert_eq!(
            w,
            ["`A1 SLQH` took 600 ms, more than half of the 1000 ms allowed: leave room for a busy machine"]
        );
    }
}
