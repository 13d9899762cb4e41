//! The matches' store calls on a real SQLite file: the claim order, leases, a claim asked
//! again, reruns and cancels, and the ladder's change stamps read in commit order.

use super::*;

/// A store in a temporary file with entrants a, b, c, each with an admitted version
/// (rows 1, 2, 3).
async fn store(dir: &std::path::Path) -> Store {
    let url = format!("sqlite://{}", dir.join("t.db").display());
    let store = Store::open(&url).await.unwrap();
    for (i, name) in ["a", "b", "c"].iter().enumerate() {
        store
            .sign_up(name, None, &format!("token-{name}"))
            .await
            .unwrap();
        let (n, stopped) = store
            .add_version(i as i64 + 1, "d", 1, 1, &crate::Quotas::default())
            .await
            .unwrap();
        assert_eq!((n, stopped), (1, Vec::new()));
    }
    store
}

fn run<F: std::future::Future>(f: F) -> F::Output {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
        .block_on(f)
}

#[test]
fn the_ladders_changes_are_read_in_the_order_committed_and_only_once() {
    let dir = tempfile::tempdir().unwrap();
    run(async {
        let s = store(dir.path()).await;
        assert_eq!(s.ladder_changes(-1).await.unwrap(), vec![]);
        let mut done = Vec::new();
        for (a, b, kind) in [
            (1, 2, Kind::Ladder),
            (1, 3, Kind::Test),
            (2, 3, Kind::Ladder),
        ] {
            let by = (kind == Kind::Test).then_some(a);
            let id = s.queue_match(a, b, kind, "quads", by).await.unwrap();
            let got = s
                .claim_match("w", &[1, 2, 3], true, 60)
                .await
                .unwrap()
                .unwrap();
            assert_eq!(got.id, id);
            assert!(s.finish_match(id, "w", &["{}".to_owned()]).await.unwrap());
            done.push(id);
        }
        // Each finished match is a change; only the ladder's count.
        let all = s.ladder_changes(-1).await.unwrap();
        assert_eq!(
            all,
            vec![(done[0], 1, true), (done[1], 2, false), (done[2], 3, true)]
        );
        assert_eq!(s.ladder_changes(3).await.unwrap(), vec![]);
        // A rerun takes the old match's games out: a change of its own, read once.
        let new = s.rerun_match(done[0]).await.unwrap().unwrap();
        assert_eq!(
            s.ladder_changes(3).await.unwrap(),
            vec![(done[0], 4, false)]
        );
        assert_eq!(s.ladder_changes(4).await.unwrap(), vec![]);
        // A match failed or cancelled never counted: no change.
        s.claim_match("w", &[1, 2, 3], true, 60)
            .await
            .unwrap()
            .unwrap();
        s.fail_match(new, "w", "a fault").await.unwrap();
        assert_eq!(s.ladder_changes(4).await.unwrap(), vec![]);
        let games = s.records_of_matches(&[done[2], done[1]]).await.unwrap();
        let ids: Vec<i64> = games.iter().map(|g| g.match_id).collect();
        assert_eq!(ids, vec![done[1], done[2]]);
    });
}

#[test]
fn test_matches_go_first_and_only_between_ready_versions() {
    let dir = tempfile::tempdir().unwrap();
    run(async {
        let s = store(dir.path()).await;
        let ladder = s
            .queue_match(1, 2, Kind::Ladder, "quads", None)
            .await
            .unwrap();
        let test = s
            .queue_match(1, 3, Kind::Test, "classic", Some(1))
            .await
            .unwrap();
        assert_eq!(s.pending_test(1).await.unwrap(), Some(test));
        assert_eq!(s.pending_test(2).await.unwrap(), None);
        // 3 is not ready: the test match waits, the ladder match goes.
        let got = s
            .claim_match("w", &[1, 2], true, 60)
            .await
            .unwrap()
            .unwrap();
        assert_eq!(
            (got.id, got.seed, got.rules.as_str()),
            (ladder, ladder as u64, "quads")
        );
        assert_eq!(
            (got.first_name.as_str(), got.second_name.as_str()),
            ("a", "b")
        );
        // Ladder matches only when the ladder is not paused; tests always.
        s.queue_match(2, 1, Kind::Ladder, "quads", None)
            .await
            .unwrap();
        assert_eq!(s.claim_match("v", &[1, 2], false, 60).await.unwrap(), None);
        let got = s
            .claim_match("v", &[1, 2, 3], false, 60)
            .await
            .unwrap()
            .unwrap();
        assert_eq!(
            (got.id, got.seed, got.rules.as_str()),
            (test, test as u64, "classic")
        );
    });
}

#[test]
fn only_the_lease_holder_hands_in_games_and_a_lost_lease_reruns_once() {
    let dir = tempfile::tempdir().unwrap();
    run(async {
        let s = store(dir.path()).await;
        let id = s
            .queue_match(1, 2, Kind::Ladder, "quads", None)
            .await
            .unwrap();
        s.claim_match("w1", &[1, 2], true, 60)
            .await
            .unwrap()
            .unwrap();
        assert!(s.heartbeat(id, "w1", 60).await.unwrap());
        assert!(!s.heartbeat(id, "w2", 60).await.unwrap());
        assert_eq!(s.reap(None).await.unwrap(), 0, "the lease holds");
        // A lease in the past: the match is queued again, and w1's games are refused.
        assert!(s.heartbeat(id, "w1", -1).await.unwrap());
        assert_eq!(s.reap(None).await.unwrap(), 1);
        assert!(!s.finish_match(id, "w1", &["{}".to_owned()]).await.unwrap());
        assert_eq!(s.match_games(id).await.unwrap().len(), 0);
        // The second taker's lease is lost too: the match fails instead of a third try.
        s.claim_match("w2", &[1, 2], true, -1)
            .await
            .unwrap()
            .unwrap();
        assert_eq!(s.reap(None).await.unwrap(), 1);
        let row = s.match_row(id).await.unwrap().unwrap();
        assert_eq!(
            (row.state.as_str(), row.reason.as_str()),
            ("failed", "its worker was lost twice while playing it")
        );
        // The server's own workers' matches, at start, are reaped at once.
        let next = s
            .queue_match(1, 2, Kind::Ladder, "quads", None)
            .await
            .unwrap();
        s.claim_match("local-1", &[1, 2], true, 60)
            .await
            .unwrap()
            .unwrap();
        assert_eq!(s.reap(Some("local-")).await.unwrap(), 1);
        let got = s
            .claim_match("w3", &[1, 2], true, 60)
            .await
            .unwrap()
            .unwrap();
        assert_eq!(got.id, next);
        assert!(s
            .finish_match(next, "w3", &["{}".to_owned(), "{}".to_owned()])
            .await
            .unwrap());
        assert_eq!(s.match_games(next).await.unwrap().len(), 2);
        assert_eq!(s.pair_games().await.unwrap(), vec![((1, 2), 2)]);
    });
}

#[test]
fn a_claim_asked_again_is_given_the_match_it_holds_until_its_second_attempt() {
    let dir = tempfile::tempdir().unwrap();
    run(async {
        let s = store(dir.path()).await;
        let first = s
            .queue_match(1, 2, Kind::Ladder, "quads", None)
            .await
            .unwrap();
        let second = s
            .queue_match(2, 3, Kind::Ladder, "quads", None)
            .await
            .unwrap();
        let claim = |who: &'static str| {
            let s = s.clone();
            async move { s.claim_match(who, &[1, 2, 3], true, 60).await.unwrap() }
        };
        // Its answer lost, w asks again: the same match, not the next one.
        assert_eq!(claim("w").await.unwrap().id, first);
        assert_eq!(claim("w").await.unwrap().id, first);
        let row = s.match_row(first).await.unwrap().unwrap();
        assert_eq!((row.state.as_str(), row.attempts), ("running", 2));
        // Another worker is not given it.
        assert_eq!(claim("x").await.unwrap().id, second);
        // A third ask (w restarted again while playing it): failed, and w goes on.
        assert_eq!(claim("w").await, None);
        let row = s.match_row(first).await.unwrap().unwrap();
        assert_eq!(
            (row.state.as_str(), row.reason.as_str()),
            ("failed", LOST_TWICE)
        );
        // Handing in counts as before, and a worker holding nothing takes the next.
        assert!(s
            .finish_match(second, "x", &["{}".to_owned(), "{}".to_owned()])
            .await
            .unwrap());
        let third = s
            .queue_match(1, 3, Kind::Ladder, "quads", None)
            .await
            .unwrap();
        assert_eq!(claim("x").await.unwrap().id, third);
    });
}

#[test]
fn reruns_and_cancels() {
    let dir = tempfile::tempdir().unwrap();
    run(async {
        let s = store(dir.path()).await;
        let id = s
            .queue_match(1, 2, Kind::Ladder, "quads", None)
            .await
            .unwrap();
        assert_eq!(s.rerun_match(id).await.unwrap(), None, "not over yet");
        s.claim_match("w", &[1, 2], true, 60)
            .await
            .unwrap()
            .unwrap();
        // Cancelled while running: the worker's games are refused.
        assert!(s.cancel_match(id, "cancelled by the host").await.unwrap());
        assert!(!s.finish_match(id, "w", &["{}".to_owned()]).await.unwrap());
        assert!(!s.cancel_match(id, "again").await.unwrap());
        let new = s.rerun_match(id).await.unwrap().unwrap();
        let (old, rerun) = (
            s.match_row(id).await.unwrap().unwrap(),
            s.match_row(new).await.unwrap().unwrap(),
        );
        assert_eq!(old.reason, format!("rerun as match {new}"));
        assert_eq!(
            (
                rerun.state.as_str(),
                rerun.seed,
                rerun.first_version,
                rerun.second_version
            ),
            ("queued", old.seed, 1, 1)
        );
        // A queued ladder match of a version that left the ladder is dropped.
        s.drop_stale(&[1, 3]).await.unwrap();
        assert_eq!(s.match_row(new).await.unwrap().unwrap().state, "cancelled");
    });
}

#[test]
fn a_claim_reads_the_hosts_pause_itself() {
    // A worker reads the switch, the host pauses the ladder, then the worker claims: the claim
    // (told the ladder may play) takes no ladder match, and still takes a test match.
    let dir = tempfile::tempdir().unwrap();
    run(async {
        let s = store(dir.path()).await;
        let ladder = s
            .queue_match(1, 2, Kind::Ladder, "quads", None)
            .await
            .unwrap();
        assert!(!s.switch(LADDER_PAUSED).await.unwrap());
        s.set_switch(LADDER_PAUSED, true).await.unwrap();
        assert_eq!(
            s.claim_match("w", &[1, 2, 3], true, 60).await.unwrap(),
            None
        );
        let test = s
            .queue_match(1, 3, Kind::Test, "quads", Some(1))
            .await
            .unwrap();
        let got = s.claim_match("w", &[1, 2, 3], true, 60).await.unwrap();
        assert_eq!(got.map(|j| j.id), Some(test));
        // Unpaused, the ladder's match is taken.
        s.set_switch(LADDER_PAUSED, false).await.unwrap();
        let got = s.claim_match("v", &[1, 2, 3], true, 60).await.unwrap();
        assert_eq!(got.map(|j| j.id), Some(ladder));
    });
}
