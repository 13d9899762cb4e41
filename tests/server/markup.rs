//! Markup from a bot, everywhere it is shown: a bot whose ladder moves and stderr carry HTML and
//! script. Its games' reasons reach the match page, the games' records and its owner's page;
//! each shows them as text (escaped, or as JSON that cannot close its script element), under a
//! Content-Security-Policy that allows no inline script; its log is served as plain text.

use crate::harness::*;
use crate::visitor::Visitor;

const HOSTILE: &str = "<script>alert(1)</script><img src=x onerror=alert(2)>";

#[test]
fn a_bots_markup_is_shown_as_text_everywhere() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(&write_config_with(dir.path(), "crash_streak = 0\n"));
    // A name cannot carry markup at all.
    let signup = ureq::post(&format!("{}/api/entrants", server.url))
        .send_json(serde_json::json!({ "name": "<b>x</b>", "invite": server.invite() }));
    match signup {
        Err(ureq::Error::Status(code, r)) => {
            let body: serde_json::Value = r.into_json().unwrap();
            assert_eq!(
                (code, body["error"].as_str().unwrap()),
                (400, "a name has 1 to 32 letters, digits, `-`, `_` or `.`, and does not start with `.`")
            );
        }
        other => panic!("a name with markup signed up: {other:?}"),
    }
    let ann = server.entrant("ann");
    assert_eq!(server.submit(&ann, &bot_folder(dir.path(), "ann")).0, 0);
    assert_eq!(server.wait(&ann, 1, None)["status"], "admitted");
    // Passes the check (seed 1), then answers every ladder move with markup.
    let hostile = format!(
        "{SEED_LINE}\n        if words[words.index(\"seed\") + 1] != \"1\":\n            print({HOSTILE:?}, file=sys.stderr, flush=True)\n            choose = lambda w, r: {HOSTILE:?}"
    );
    let folder = edited_bot(dir.path(), "cy", (SEED_LINE, &hostile));
    let cy = server.entrant("cy");
    assert_eq!(server.submit(&cy, &folder).0, 0);
    assert_eq!(server.wait(&cy, 1, None)["status"], "admitted");
    let m = server.wait_match(1, None);
    assert_eq!(m["match"]["state"], "done", "{m}");
    // The markup is in the record, as the bot sent it: the test is not toothless.
    let reasons = m["games"].to_string();
    assert!(reasons.contains("<script>alert(1)</script>"), "{m}");
    let mut owner = Visitor::new(&server);
    owner.get("/login");
    owner.post("/login", &[("token", &cy)]);
    for page in ["/matches/1", "/entrants/cy", "/"] {
        let a = owner.get(page);
        assert_eq!(a.status, 200, "{page}");
        for raw in ["<script>alert", "<img src=x"] {
            assert!(
                !a.body.contains(raw),
                "{page} carries `{raw}` raw:\n{}",
                a.body
            );
        }
        let csp = a.header("content-security-policy").unwrap_or_default();
        assert!(
            csp.contains("script-src 'self'") && !csp.contains("unsafe-inline"),
            "{page}: {csp}"
        );
    }
    // The match page does carry it, as data the replay shows as text.
    assert!(owner.get("/matches/1").body.contains("alert(1)"));
    let seat = if m["games"][0]["first"] == "cy" {
        "first"
    } else {
        "second"
    };
    let a = owner.get(&format!("/api/matches/1/logs/game-0001-{seat}-cy.log"));
    assert_eq!(a.status, 200);
    assert_eq!(a.body, format!("{HOSTILE}\n"));
    assert_eq!(a.header("content-type"), Some("text/plain; charset=utf-8"));
    assert_eq!(a.header("x-content-type-options"), Some("nosniff"));
}
