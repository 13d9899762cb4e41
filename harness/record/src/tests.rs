use super::*;

/// A record as the referee wrote it before these types existed (a forfeit, a match game).
const OLD: &str = r#"{"game":3,"rules":"quads","seed":42,"time_control":"movetime 1000","start":"..../..../..../.... -","first":{"name":"a","command":"./a","id":"A"},"second":{"name":"b","command":"./b","id":null},"moves":["BDRF"],"end":"..../..../..../.... BDRF","result":"0-1","reason":"timeout","failures":[{"seat":"first","reason":"timeout","detail":"no move within 1000 ms (+50 ms margin)"}],"timing":{"started":"2026-01-01T00:00:00.000Z","duration_ms":1.5,"moves_ms":[1.0],"leaked":[0,0],"log_bytes":[0,0],"log_dropped":[0,0]}}"#;

#[test]
fn an_old_record_reads_and_writes_back_byte_for_byte() {
    let records = parse_jsonl(&format!("{OLD}\n\n")).unwrap();
    let r = &records[0];
    assert_eq!(r.result, GameResult::SecondWins);
    assert_eq!(r.reason, EndReason::Forfeit(ForfeitReason::Timeout));
    assert_eq!(r.failures[0].seat, Player::First);
    assert_eq!(r.pair_id(), 2);
    assert_eq!(r.to_json(), OLD);
}

#[test]
fn an_unknown_word_is_an_error_with_its_line() {
    let text = format!(
        "{OLD}\n{}\n",
        OLD.replace(r#""result":"0-1""#, r#""result":"0.5-0.5""#)
    );
    let err = parse_jsonl(&text).unwrap_err();
    assert_eq!(err.line, 2);
    assert!(
        err.to_string()
            .starts_with("line 2: not a game record: unknown result `0.5-0.5` (expected one of: 1-0, 0-1, 1/2-1/2)"),
        "{err}"
    );
    let reason = OLD.replace(
        r#""reason":"timeout","failures""#,
        r#""reason":"resigned","failures""#,
    );
    let err = parse_jsonl(&reason).unwrap_err();
    assert!(err.to_string().contains("unknown reason `resigned` (expected one of: normal, draw, timeout, illegal-move, malformed, crash, closed-output, handshake, unsupported-version, resource-limit)"), "{err}");
}

#[test]
fn every_word_reads_back_as_itself() {
    for r in GameResult::ALL {
        assert_eq!(r.as_str().parse::<GameResult>(), Ok(*r));
    }
    for s in Player::ALL {
        assert_eq!(s.as_str().parse::<Player>(), Ok(*s));
        assert_eq!(Player::from_index(s.index()), *s);
        assert_eq!(
            GameResult::loss_of(*s).winner().map(Player::index),
            Some(1 - s.index())
        );
    }
    for f in ForfeitReason::ALL {
        assert_eq!(f.as_str().parse::<EndReason>(), Ok(EndReason::Forfeit(*f)));
    }
    assert_eq!(ForfeitReason::ALL.len(), 8);
    assert_eq!("normal".parse::<EndReason>(), Ok(EndReason::Normal));
    assert_eq!("draw".parse::<EndReason>(), Ok(EndReason::Draw));
}
