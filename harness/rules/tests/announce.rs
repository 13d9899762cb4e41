//! The "Quarto!" rule and the reasons moves are refused, one scenario each.

use quads_rules::{ClaimState, Move, Outcome, Player, Position, Reason, Rules};

fn rules(spec: &str) -> Rules {
    spec.parse().unwrap()
}

fn pos(text: &str) -> Position {
    text.parse().unwrap()
}

fn play(p: &Position, mv: &str, r: &Rules) -> Position {
    p.play(mv.parse::<Move>().unwrap(), r)
        .unwrap_or_else(|e| panic!("{e}"))
}

fn refused(p: &Position, mv: &str, r: &Rules) -> Reason {
    let err = p.play(mv.parse::<Move>().unwrap(), r).unwrap_err();
    assert_eq!(err.position, *p, "the position is left unchanged");
    err.reason
}

/// Three big pieces on row 1 and the big BDQH in hand, which completes the row on D1. Three
/// pieces are placed, so the first player places next.
const ROW: &str = "..../..../..../BDRFBLQHBLRF. BDQH";

#[test]
fn a_placement_that_is_announced_wins() {
    let r = rules("classic,claim=announce");
    let start = pos(ROW);
    assert_eq!(start.to_move(), Player::First);
    let after = play(&start, "D1 quarto", &r);
    assert_eq!(
        after.to_string(),
        "..../..../..../BDRFBLQHBLRFBDQH - claimed"
    );
    assert_eq!(after.outcome(&r), Some(Outcome::Win(Player::First)));
    assert!(after.legal_moves(&r).is_empty());
}

#[test]
fn an_unannounced_win_can_be_claimed_by_the_receiver() {
    let r = rules("classic,claim=announce");
    let missed = play(&pos(ROW), "D1 SLQH", &r);
    assert_eq!(missed.claim_state(), ClaimState::Claimable);
    assert_eq!(missed.outcome(&r), None);
    assert_eq!(
        missed.to_string(),
        "..../..../..../BDRFBLQHBLRFBDQH SLQH claimable"
    );
    assert_eq!(missed.legal_moves(&r)[0], Move::Claim);
    let claimed = play(&missed, "quarto", &r);
    assert_eq!(
        claimed.to_string(),
        "..../..../..../BDRFBLQHBLRFBDQH SLQH claimed"
    );
    assert_eq!(claimed.outcome(&r), Some(Outcome::Win(Player::Second)));
}

#[test]
fn a_shape_both_players_overlook_never_counts_again() {
    let r = rules("classic,claim=announce");
    // First completes row 1 with BDQH on D1 but gives SLQH instead of announcing.
    let missed = play(&pos(ROW), "D1 SLQH", &r);
    // Second places SLQH on B2 without claiming, and gives SDRH: the row is overlooked.
    let overlooked = play(&missed, "B2 SDRH", &r);
    assert_eq!(overlooked.claim_state(), ClaimState::None);
    assert_eq!(
        overlooked.outcome(&r),
        None,
        "the completed row no longer wins"
    );
    assert_eq!(refused(&overlooked, "quarto", &r), Reason::FalseClaim);
    // A different shape still wins: column D fills with dark pieces around D1's BDQH.
    let p = play(&overlooked, "D2 SDQF", &r); // first
    let p = play(&p, "D3 BDRH", &r); // second: column D holds BDQH, SDRH, SDQF
    assert_eq!(
        refused(&p, "quarto", &r),
        Reason::FalseClaim,
        "the dead row cannot be claimed"
    );
    let won = play(&p, "D4 quarto", &r); // first completes column D, all dark
    assert_eq!(won.outcome(&r), Some(Outcome::Win(Player::First)));
}

#[test]
fn claims_are_refused_when_false_or_outside_announce() {
    let announce = rules("classic,claim=announce");
    let auto = rules("classic");
    let start = pos(ROW);
    assert_eq!(refused(&start, "C3 quarto", &announce), Reason::FalseClaim);
    assert_eq!(refused(&start, "quarto", &announce), Reason::FalseClaim);
    assert_eq!(refused(&start, "D1 quarto", &auto), Reason::NoClaims);
    assert_eq!(refused(&start, "quarto", &auto), Reason::NoClaims);
    assert_eq!(
        refused(&Position::START, "quarto", &announce),
        Reason::FalseClaim
    );
}

#[test]
fn each_illegal_move_says_why() {
    let r = rules("quads");
    let start = pos(ROW);
    assert_eq!(
        refused(&Position::START, "A1 BDRF", &r),
        Reason::NothingToPlace
    );
    assert_eq!(refused(&start, "SLQH", &r), Reason::MustPlace);
    assert_eq!(
        refused(&start, "A1 SLQH", &r),
        Reason::Occupied("A1".parse().unwrap())
    );
    assert_eq!(
        refused(&start, "A2 BDRF", &r),
        Reason::Unavailable("BDRF".parse().unwrap())
    );
    assert_eq!(
        refused(&start, "A2 BDQH", &r),
        Reason::Unavailable("BDQH".parse().unwrap())
    );
    assert_eq!(refused(&start, "A2", &r), Reason::MustGive);
    assert_eq!(refused(&start, "D1 SLQH", &r), Reason::MustNotGive);
    let won = play(&start, "D1", &r);
    assert_eq!(won.outcome(&r), Some(Outcome::Win(Player::First)));
    assert_eq!(refused(&won, "SLQH", &r), Reason::GameOver);
    let message = start
        .play("A2".parse().unwrap(), &r)
        .unwrap_err()
        .to_string();
    assert_eq!(
        message,
        "illegal move `A2` in `..../..../..../BDRFBLQHBLRF. BDQH`: the game goes on: give a piece after placing"
    );
}

#[test]
fn a_board_filled_without_an_announced_win_is_a_draw() {
    let r = rules("quads,claim=announce");
    // Column D completes (all hollow) when BLQH goes to D4 with C4 still empty.
    let two_left = pos("BDRHSLRF../BDQFSDQHSDRFSLRH/BLRFBDQHSLQFBLRH/SLQHBLQFBDRFSDRH BLQH");
    let missed = play(&two_left, "D4 SDQF", &r);
    assert_eq!(missed.claim_state(), ClaimState::Claimable);
    let filled = play(&missed, "C4", &r);
    assert_eq!(filled.outcome(&r), Some(Outcome::Draw));
    // Under automatic claims the same placement simply wins.
    let auto = rules("quads");
    // Fourteen pieces are placed, so the 15th placement is the second player's.
    assert_eq!(
        play(&two_left, "D4", &auto).outcome(&auto),
        Some(Outcome::Win(Player::Second))
    );
}
