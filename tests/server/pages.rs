//! The pages over real HTTP with cookies: every form refused without its CSRF token (or with
//! another visitor's), a session cookie that reads but never acts through the API, logging in
//! and out; and what the pages show to whom: an owner's logs, check report and faults to the
//! owner and the host only, uploads and test matches by the forms, the host's forms.

use serde_json::json;

use crate::harness::*;
use crate::visitor::{csrf_in, tar_gz, text_of, Visitor};

const STALE: &str =
    "the form's security token is missing or stale: reload the page and send it again";

#[test]
fn forms_need_their_csrf_token_and_a_cookie_never_acts_through_the_api() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(&write_config(dir.path()));
    let mut ann = Visitor::new(&server);
    let page = ann.get("/signup");
    assert_eq!(page.status, 200);
    let set = page.header("set-cookie").unwrap();
    assert!(set.starts_with("quads_visit="), "{set}");
    assert!(
        set.ends_with("; Path=/; Max-Age=2592000; HttpOnly; SameSite=Strict"),
        "{set}"
    );
    assert_eq!(
        page.header("content-security-policy"),
        Some("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'")
    );
    assert_eq!(page.header("x-content-type-options"), Some("nosniff"));
    let invite = server.invite();
    // Without the token, with another visitor's, with none and no cookie: refused, nothing made.
    let mut other = Visitor::new(&server);
    other.get("/signup");
    let theirs = other.csrf.clone().unwrap();
    let fields = [("name", "ann"), ("invite", invite.as_str())];
    for csrf in [None, Some(theirs.as_str()), Some("")] {
        let mut all = fields.to_vec();
        if let Some(c) = csrf {
            all.push(("csrf", c));
        }
        let a = ann.post_raw("/signup", &all);
        assert_eq!(a.status, 403, "{csrf:?}");
        assert!(
            a.body.contains(&format!("<p class=\"error\">{STALE}</p>")),
            "{}",
            a.body
        );
    }
    let mut cookieless = Visitor::new(&server);
    let a = cookieless.post_raw("/signup", &[("name", "ann"), ("csrf", &theirs)]);
    assert_eq!(a.status, 403);
    assert!(
        a.body.contains("the browser sent no cookie with the form"),
        "{}",
        a.body
    );
    assert_eq!(server.get("/api/matches", None).1, json!({ "matches": [] }));
    // With it: signed up and logged in; the page shows the token once, and it works.
    let a = ann.post("/signup", &fields);
    assert_eq!(a.status, 201, "{}", a.body);
    let token = text_of(&a.body, "token").unwrap();
    assert_eq!(server.me(&token).1["name"], "ann");
    assert!(ann.cookies.contains_key("quads_session"));
    assert_eq!(
        ann.api("/api/me").1,
        json!({ "name": "ann", "versions": [], "webhook": null })
    );
    // The invite was used by that one sign-up.
    let mut bo = Visitor::new(&server);
    bo.get("/signup");
    let a = bo.post("/signup", &[("name", "bo"), ("invite", &invite)]);
    assert_eq!(a.status, 403, "{}", a.body);
    // The visit's token no longer passes once logged in: the session's does.
    let visit_token = csrf_in(&page.body).unwrap();
    let a = ann.post_raw("/test-match", &[("opponent", "bo"), ("csrf", &visit_token)]);
    assert_eq!(a.status, 403, "{}", a.body);
    let a = ann.post_raw("/webhook", &[("url", ""), ("csrf", &visit_token)]);
    assert_eq!(a.status, 403, "{}", a.body);
    // A cookie alone never acts through the API: its POST calls take a token.
    let a = ann.post_raw("/api/matches", &[]);
    assert_eq!(a.status, 401, "{}", a.body);
    let a = ann.upload(b"not an archive", Some(&visit_token));
    assert_eq!(a.status, 403, "{}", a.body);
    // Logging out ends the session: the old cookie reads nothing any more.
    let old = ann.cookies.clone();
    ann.get("/");
    let a = ann.post("/logout", &[]);
    assert_eq!((a.status, a.location.as_deref()), (303, Some("/")));
    assert!(!ann.cookies.contains_key("quads_session"));
    ann.cookies = old;
    assert_eq!(ann.api("/api/me").0, 401);
    // Logging in: a wrong token, the entrant's, the host's.
    let mut v = Visitor::new(&server);
    v.get("/login");
    let a = v.post("/login", &[("token", "0123")]);
    assert_eq!(a.status, 401);
    let a = v.post("/login", &[("token", &token)]);
    assert_eq!(
        (a.status, a.location.as_deref()),
        (303, Some("/entrants/ann"))
    );
    assert_eq!(v.get("/admin").status, 403);
    assert_eq!(Visitor::new(&server).get("/admin").status, 401);
    let mut host = Visitor::new(&server);
    host.get("/login");
    let a = host.post("/login", &[("token", ADMIN)]);
    assert_eq!((a.status, a.location.as_deref()), (303, Some("/admin")));
    assert_eq!(host.get("/admin").status, 200);
    // The host's forms need the token too.
    let a = host.post_raw("/admin/switches", &[("frozen", "on")]);
    assert_eq!(a.status, 403);
    assert!(host
        .get("/admin")
        .body
        .contains("<input type=\"checkbox\" name=\"frozen\">"));
}

#[test]
fn owners_things_stay_with_the_owner_and_the_host_and_the_forms_act() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(&write_config_with(dir.path(), "crash_streak = 0\n"));
    // ann signs up and uploads on the pages.
    let mut ann = Visitor::new(&server);
    ann.get("/signup");
    let a = ann.post("/signup", &[("name", "ann"), ("invite", &server.invite())]);
    let ann_token = text_of(&a.body, "token").unwrap();
    ann.get("/entrants/ann");
    let a = ann.upload(&tar_gz(&bot_folder(dir.path(), "ann")), None);
    assert_eq!(
        (a.status, a.location.as_deref()),
        (303, Some("/entrants/ann#v-1")),
        "{}",
        a.body
    );
    assert_eq!(server.wait(&ann_token, 1, None)["status"], "admitted");
    // cy, by the API, with a bot that crashes (and says so on stderr) in ladder games.
    let cy_token = server.entrant("cy");
    assert_eq!(
        server.submit(&cy_token, &crashing_bot(dir.path(), "cy")).0,
        0
    );
    assert_eq!(server.wait(&cy_token, 1, None)["status"], "admitted");
    let m = server.wait_match(1, None);
    assert_eq!(m["match"]["state"], "done", "{m}");
    let seat = if m["games"][0]["first"] == "cy" {
        "first"
    } else {
        "second"
    };
    let log = format!("/api/matches/1/logs/game-0001-{seat}-cy.log");
    let mut cy = Visitor::new(&server);
    cy.get("/login");
    cy.post("/login", &[("token", &cy_token)]);
    let mut host = Visitor::new(&server);
    host.get("/login");
    host.post("/login", &[("token", ADMIN)]);
    let mut nobody = Visitor::new(&server);
    // The log: its owner's and the host's, by their cookies.
    for (v, want) in [
        (&mut cy, 200),
        (&mut host, 200),
        (&mut ann, 403),
        (&mut nobody, 401),
    ] {
        let a = v.get(&log);
        assert_eq!(a.status, want, "{}", a.body);
        assert_eq!(a.header("x-content-type-options"), Some("nosniff"));
        if want == 200 {
            assert!(a.body.contains("crashing on purpose"), "{}", a.body);
            assert_eq!(a.header("content-type"), Some("text/plain; charset=utf-8"));
        }
    }
    // The check's report and build log page; the faults on cy's page.
    let seers = [
        (&mut cy, 200, true),
        (&mut host, 200, false),
        (&mut ann, 403, false),
        (&mut nobody, 401, false),
    ];
    for (v, want, owner) in seers {
        let a = v.get("/entrants/cy/versions/1");
        assert_eq!(a.status, want, "{}", a.body);
        assert_eq!(a.body.contains("| cy |"), want == 200, "{}", a.body);
        let page = v.get("/entrants/cy");
        assert_eq!(page.status, 200);
        assert_eq!(
            page.body.contains("crashing on purpose"),
            want == 200,
            "{}",
            page.body
        );
        assert!(
            page.body
                .contains("<td class=\"left\">13 of 13 scenarios passed"),
            "{}",
            page.body
        );
        // The upload form is the owner's alone.
        assert_eq!(page.body.contains("id=\"upload\""), owner);
    }
    // Her download is her own version 1, never cy's.
    let a = ann.get("/api/versions/1/download");
    assert_eq!(a.status, 200);
    assert_eq!(a.bytes, server.download(&ann_token, 1).1);
    assert_ne!(a.bytes, server.download(&cy_token, 1).1);
    assert_eq!(nobody.get("/api/versions/1/download").status, 401);
    // A test match by the form: the match page says it is not rated.
    let page = ann.get("/entrants/ann");
    assert!(
        page.body.contains("id=\"upload\"")
            && page.body.contains("<option value=\"cy\">cy</option>")
    );
    let a = ann.post("/test-match", &[("opponent", "cy"), ("rules", "quads")]);
    assert_eq!(a.status, 303, "{}", a.body);
    let to = a.location.unwrap();
    let id: i64 = to.strip_prefix("/matches/").unwrap().parse().unwrap();
    let m = server.wait_match(id, None);
    assert_eq!(
        (&m["match"]["kind"], &m["match"]["state"]),
        (&json!("test"), &json!("done"))
    );
    let page = nobody.get(&to);
    assert!(
        page.body.contains("<dd>test (not rated)</dd>"),
        "{}",
        page.body
    );
    assert!(page.body.contains(&format!(
        "id=\"replay-command\">{}<",
        m["replay"].as_str().unwrap()
    )));
    assert!(page.body.contains("<section id=\"games\">") && page.body.contains("id=\"data\""));
    // No analysis without `analysis = true`.
    assert!(page.body.contains("\"judged\":false"), "{}", page.body);
    // The host's forms: an invite that works, the freeze, disabling.
    host.get("/admin");
    let a = host.post("/admin/invite", &[]);
    let code = text_of(&a.body, "invite").unwrap();
    assert_eq!(server.sign_up("dee", Some(&code)).0, 201);
    let a = host.post("/admin/switches", &[("frozen", "on")]);
    assert_eq!((a.status, a.location.as_deref()), (303, Some("/admin")));
    assert_eq!(
        server.upload(&ann_token, &tar_gz(&bot_folder(dir.path(), "ann"))),
        (
            403,
            json!({ "error": "uploads are frozen: the host has closed the event to new versions" })
        )
    );
    host.get("/admin");
    let a = host.post(
        "/admin/disable",
        &[("name", "cy"), ("reason", "plays unfairly")],
    );
    assert_eq!(a.status, 303);
    assert!(nobody
        .get("/entrants/cy")
        .body
        .contains("<p class=\"error\">The host disabled this entrant: plays unfairly</p>"));
    // An entrant cannot use the host's forms even with its own valid token.
    let a = ann.post("/admin/switches", &[]);
    assert_eq!(a.status, 403);
    assert!(
        a.body
            .contains("<p class=\"error\">only the host may do this</p>"),
        "{}",
        a.body
    );
    assert!(host
        .get("/admin")
        .body
        .contains("<input type=\"checkbox\" name=\"frozen\" checked>"));
}

#[test]
fn with_analysis_on_a_matchs_page_has_the_solvers_marks() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(&write_config_with(dir.path(), "analysis = true\n"));
    for name in ["ann", "bo"] {
        let token = server.entrant(name);
        assert_eq!(server.submit(&token, &bot_folder(dir.path(), name)).0, 0);
        assert_eq!(server.wait(&token, 1, None)["status"], "admitted");
    }
    let m = server.wait_match(1, None);
    assert_eq!(m["match"]["state"], "done", "{m}");
    // The games and their judgement come together: the match is done once both are in.
    let judged = std::fs::read_to_string(dir.path().join("data/matches/1/analysis.jsonl")).unwrap();
    let games: Vec<serde_json::Value> = judged
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(games.len(), 2, "{judged}");
    let moves: usize = games
        .iter()
        .map(|g| g["moves"].as_array().unwrap().len())
        .sum();
    assert!(moves > 0, "{judged}");
    let (code, page) = server.text("/matches/1", None);
    assert_eq!(code, 200);
    assert!(page.contains("\"judged\":true"), "{page}");
}
