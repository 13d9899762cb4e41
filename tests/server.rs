//! `quads serve` and `quads submit` as a host and its entrants use them: a real server process
//! on a free port with its SQLite file, real HTTP; invites, sign-up, uploads by the CLI and by
//! hand, downloads, refusals, archives made by an attacker's tools (Python's tarfile and
//! zipfile), and a restart after SIGKILL that keeps everything.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

use serde_json::{json, Value};

const ADMIN: &str = "host-token-0123456789";

struct Server {
    child: Child,
    url: String,
    config: PathBuf,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn write_config(dir: &Path) -> PathBuf {
    let config = dir.join("server.toml");
    let text = format!(
        "name = \"test-cup\"\nlisten = \"127.0.0.1:0\"\ndata = \"{}\"\nadmin_token = \"{ADMIN}\"\n\
         [limits]\nupload_bytes = 200000\nunpacked_bytes = 1000000\nfiles = 100\n",
        dir.join("data").display()
    );
    std::fs::write(&config, text).unwrap();
    config
}

/// Starts `quads serve` and waits for the line that says where it listens.
fn start(config: &Path) -> Server {
    let mut child = Command::new(env!("CARGO_BIN_EXE_quads"))
        .args(["serve", "--config"])
        .arg(config)
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let url = line
        .trim()
        .strip_prefix("quads serve: test-cup at ")
        .unwrap_or_else(|| panic!("unexpected first line: {line:?}"))
        .to_owned();
    Server {
        child,
        url,
        config: config.to_owned(),
    }
}

/// (status, JSON body) of a call.
fn call(req: ureq::Request, body: Option<Value>) -> (u16, Value) {
    let answer = match body {
        Some(b) => req.send_json(b),
        None => req.call(),
    };
    match answer {
        Ok(r) => (r.status(), r.into_json().unwrap()),
        Err(ureq::Error::Status(code, r)) => (code, r.into_json().unwrap()),
        Err(e) => panic!("{e}"),
    }
}

fn with_token(req: ureq::Request, token: &str) -> ureq::Request {
    req.set("Authorization", &format!("Bearer {token}"))
}

impl Server {
    fn invite(&self) -> String {
        let (code, body) = call(
            with_token(ureq::post(&format!("{}/api/invites", self.url)), ADMIN),
            None,
        );
        assert_eq!(code, 201, "{body}");
        body["invite"].as_str().unwrap().to_owned()
    }

    fn sign_up(&self, name: &str, invite: Option<&str>) -> (u16, Value) {
        call(
            ureq::post(&format!("{}/api/entrants", self.url)),
            Some(json!({ "name": name, "invite": invite })),
        )
    }

    fn entrant(&self, name: &str) -> String {
        let (code, body) = self.sign_up(name, Some(&self.invite()));
        assert_eq!(code, 201, "{body}");
        body["token"].as_str().unwrap().to_owned()
    }

    fn me(&self, token: &str) -> (u16, Value) {
        call(
            with_token(ureq::get(&format!("{}/api/me", self.url)), token),
            None,
        )
    }

    /// `quads submit`: (exit code, stdout, stderr).
    fn submit(&self, token: &str, path: &Path) -> (i32, String, String) {
        let out = Command::new(env!("CARGO_BIN_EXE_quads"))
            .args(["submit", "--server", &self.url, "--token", token])
            .arg(path)
            .output()
            .unwrap();
        let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
        (
            out.status.code().unwrap(),
            text(&out.stdout),
            text(&out.stderr),
        )
    }

    /// An upload by hand: one multipart field `archive`.
    fn upload(&self, token: &str, archive: &[u8]) -> (u16, Value) {
        let b = "xyzzy-boundary-42";
        let mut body = format!(
            "--{b}\r\nContent-Disposition: form-data; name=\"archive\"; filename=\"a\"\r\n\r\n"
        )
        .into_bytes();
        body.extend_from_slice(archive);
        body.extend_from_slice(format!("\r\n--{b}--\r\n").as_bytes());
        let req = with_token(ureq::post(&format!("{}/api/versions", self.url)), token).set(
            "Content-Type",
            &format!("multipart/form-data; boundary={b}"),
        );
        match req.send_bytes(&body) {
            Ok(r) => (r.status(), r.into_json().unwrap()),
            Err(ureq::Error::Status(code, r)) => (code, r.into_json().unwrap()),
            Err(e) => panic!("{e}"),
        }
    }

    /// Version `n`, once its status is no longer `from` (or, without, once it is checked).
    fn wait(&self, token: &str, n: u32, from: Option<&str>) -> Value {
        let from = from.map_or(String::new(), |f| format!("&from={f}"));
        let url = format!("{}/api/versions/{n}?wait=100{from}", self.url);
        let (code, body) = call(with_token(ureq::get(&url), token), None);
        assert_eq!(code, 200, "{body}");
        body
    }

    fn report(&self, token: &str, n: u32) -> Value {
        let url = format!("{}/api/versions/{n}/report", self.url);
        let (code, body) = call(with_token(ureq::get(&url), token), None);
        assert_eq!(code, 200, "{body}");
        body
    }

    fn download(&self, token: &str, n: u32) -> (u16, Vec<u8>) {
        let req = with_token(
            ureq::get(&format!("{}/api/versions/{n}/download", self.url)),
            token,
        );
        let read = |r: ureq::Response| {
            let mut v = Vec::new();
            std::io::Read::read_to_end(&mut r.into_reader(), &mut v).unwrap();
            v
        };
        match req.call() {
            Ok(r) => (r.status(), read(r)),
            Err(ureq::Error::Status(code, r)) => (code, read(r)),
            Err(e) => panic!("{e}"),
        }
    }
}

/// The example entrant alice's folder, copied under `dir` as `name` with its manifest renamed.
fn bot_folder(dir: &Path, name: &str) -> PathBuf {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/entrants/alice");
    let to = dir.join(name);
    std::fs::create_dir_all(&to).unwrap();
    std::fs::copy(src.join("bot.py"), to.join("bot.py")).unwrap();
    let manifest = std::fs::read_to_string(src.join("bot.toml")).unwrap();
    std::fs::write(
        to.join("bot.toml"),
        manifest.replace("\"alice\"", &format!("\"{name}\"")),
    )
    .unwrap();
    to
}

/// An archive made by Python's tarfile or zipfile from a script's entries.
fn python_archive(dir: &Path, script: &str) -> Vec<u8> {
    let out = dir.join("attack.bin");
    let status = Command::new("python3")
        .arg("-c")
        .arg(script)
        .arg(&out)
        .status()
        .unwrap();
    assert!(status.success());
    std::fs::read(out).unwrap()
}

/// Every path under `dir`.
fn tree(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        out.push(p.clone());
        if p.is_dir() && !p.is_symlink() {
            out.extend(tree(&p));
        }
    }
    out
}

#[test]
fn entrants_sign_up_upload_and_download_their_versions() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(&write_config(dir.path()));
    let ann = server.entrant("ann");
    let (code, me) = server.me(&ann);
    assert_eq!((code, me), (200, json!({ "name": "ann", "versions": [] })));
    let folder = bot_folder(dir.path(), "ann");
    let (code, out, err) = server.submit(&ann, &folder);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("version 1 uploaded: 2 files, "), "{out}");
    // The same files again: a new version, the same digest (content-addressed).
    let (code, out2, _) = server.submit(&ann, &folder);
    assert_eq!(code, 0);
    assert!(out2.starts_with("version 2 uploaded: 2 files, "), "{out2}");
    let (_, me) = server.me(&ann);
    let versions = me["versions"].as_array().unwrap();
    assert_eq!(versions.len(), 2);
    assert_eq!(versions[0]["digest"], versions[1]["digest"]);
    // The pipeline builds and checks each: admitted, with the check's summary.
    for n in [1, 2] {
        let v = server.wait(&ann, n, None);
        assert_eq!(v["status"], "admitted", "{v}");
        assert_eq!(v["reason"], "13 of 13 scenarios passed, 4 warnings");
    }
    // The download is the server's pack of the folder: the same bytes `quads_server::pack` makes.
    let (code, bytes) = server.download(&ann, 1);
    assert_eq!(code, 200);
    assert_eq!(bytes, quads_server::pack::pack(&folder).unwrap());
    let digest = versions[0]["digest"].as_str().unwrap();
    assert_eq!(quads_server::pack::digest(&bytes), digest);
    // One file with its manifest beside it.
    let (code, out, err) = server.submit(&ann, &folder.join("bot.py"));
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("version 3 uploaded: 2 files"), "{out}");
    // Its files are the folder's, byte for byte (a single file arrives without its mode).
    let (code, bytes) = server.download(&ann, 3);
    assert_eq!(code, 200);
    let back = dir.path().join("back");
    std::fs::create_dir(&back).unwrap();
    let limits = quads_server::Limits::default();
    quads_server::unpack::unpack(&bytes, &back, &limits).unwrap();
    for file in ["bot.py", "bot.toml"] {
        assert_eq!(
            std::fs::read(back.join(file)).unwrap(),
            std::fs::read(folder.join(file)).unwrap()
        );
    }
}

#[test]
fn what_is_not_yours_or_not_allowed_is_refused_with_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(&write_config(dir.path()));
    let ann = server.entrant("ann");
    let bob = server.entrant("bob");
    assert_eq!(server.submit(&ann, &bot_folder(dir.path(), "ann")).0, 0);
    // Bob cannot see or download Ann's version; nobody can without a token.
    let (code, body) = server.download(&bob, 1);
    assert_eq!(
        (code, serde_json::from_slice::<Value>(&body).unwrap()),
        (404, json!({"error": "you have no such version"}))
    );
    let (code, body) = call(ureq::get(&format!("{}/api/me", server.url)), None);
    assert_eq!(
        (code, body),
        (
            401,
            json!({"error": "give your token: Authorization: Bearer TOKEN"})
        )
    );
    assert_eq!(server.me("not-a-token").0, 401);
    // Only the host makes invites.
    let (code, body) = call(
        with_token(ureq::post(&format!("{}/api/invites", server.url)), &ann),
        None,
    );
    assert_eq!(
        (code, body),
        (403, json!({"error": "only the host may make invites"}))
    );
    // An invite is good once; a name once; sign-up needs an invite.
    let invite = server.invite();
    assert_eq!(server.sign_up("cy", Some(&invite)).0, 201);
    assert_eq!(
        server.sign_up("dee", Some(&invite)),
        (403, json!({"error": "this invite is not one, or was used"}))
    );
    assert_eq!(
        server.sign_up("ann", Some(&server.invite())),
        (409, json!({"error": "the name `ann` is taken"}))
    );
    assert_eq!(server.sign_up("eve", None).0, 403);
    assert_eq!(server.sign_up("<script>", Some(&server.invite())).0, 400);
    // A manifest naming another entrant, and a broken one.
    let (code, _, err) = server.submit(&bob, &bot_folder(dir.path(), "ann"));
    assert_eq!(code, 2);
    assert_eq!(err.trim(), "quads: the server refused the upload (HTTP 422): bot.toml names the bot `ann`, but this is `bob`'s account: name it `bob`");
    let broken = bot_folder(&dir.path().join("b"), "bob");
    std::fs::write(
        broken.join("bot.toml"),
        "name = \"bob\"\nauthor = \"B\"\ncomand = \"x\"\n",
    )
    .unwrap();
    let (code, _, err) = server.submit(&bob, &broken);
    assert_eq!(code, 2);
    assert!(
        err.trim().starts_with(
            "quads: the server refused the upload (HTTP 422): bot.toml:3: unknown field `comand`"
        ),
        "{err}"
    );
    // Over the size limit; not an archive; an unknown page.
    assert_eq!(
        server.upload(&bob, &vec![7u8; 300_000]),
        (413, json!({"error": "the upload is over 200000 bytes"}))
    );
    assert_eq!(server.upload(&bob, b"plain text").0, 400);
    let (code, _) = call(ureq::get(&format!("{}/nothing", server.url)), None);
    assert_eq!(code, 404);
    let (_, me) = server.me(&bob);
    assert_eq!(me["versions"], json!([]));
}

#[test]
fn an_attackers_archives_land_nothing_outside_and_the_server_stays_up() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(&write_config(dir.path()));
    let eve = server.entrant("eve");
    let tar = |entries: &str| {
        format!(
            "import io, sys, tarfile\nt = tarfile.open(sys.argv[1], 'w:gz')\n\
             def add(name, data=b'x', kind=tarfile.REGTYPE, link=''):\n\
             \x20   i = tarfile.TarInfo(name); i.type = kind; i.linkname = link; i.size = len(data) if kind == tarfile.REGTYPE else 0\n\
             \x20   t.addfile(i, io.BytesIO(data) if kind == tarfile.REGTYPE else None)\n\
             add('bot.toml', b'name = \"eve\"\\nauthor = \"E\"\\ncommand = \"python3 bot.py\"\\n')\n{entries}\nt.close()\n"
        )
    };
    let cases = [
        (tar("add('../../escaped')"), 400, "`../../escaped` is outside the bot's folder (an absolute path or a `..` step)"),
        (tar(&format!("add('{}/escaped')", dir.path().display())), 400, "is outside the bot's folder"),
        (tar("add('ln', kind=tarfile.SYMTYPE, link='/etc')\nadd('ln/escaped')"), 400, "`ln` is a symbolic link: only plain files and folders may be uploaded"),
        (tar("add('hard', kind=tarfile.LNKTYPE, link='/etc/passwd')"), 400, "`hard` is a hard link"),
        (tar("add('dev', kind=tarfile.CHRTYPE)"), 400, "`dev` is a device"),
        (tar("add('bomb', b'\\0' * 2_000_000)"), 413, "the upload unpacks to more than 1000000 bytes"),
        (
            "import sys, zipfile\nz = zipfile.ZipFile(sys.argv[1], 'w', zipfile.ZIP_DEFLATED)\nz.writestr('../escaped', 'x')\nz.close()".to_owned(),
            400,
            "`../escaped` is outside",
        ),
        (
            "import sys, zipfile\nz = zipfile.ZipFile(sys.argv[1], 'w', zipfile.ZIP_DEFLATED)\nz.writestr('bomb', b'\\0' * 50_000_000)\nz.close()".to_owned(),
            413,
            "the upload unpacks to more than 1000000 bytes",
        ),
    ];
    for (script, status, words) in &cases {
        let archive = python_archive(dir.path(), script);
        let (code, body) = server.upload(&eve, &archive);
        let message = body["error"].as_str().unwrap();
        assert_eq!(code, *status, "{message}");
        assert!(message.contains(words), "{message}");
    }
    // Nothing escaped (the `..` steps and the absolute path all aim inside this folder): no
    // file named `escaped` anywhere in it, and no staging left behind.
    assert!(
        !tree(dir.path()).iter().any(|p| p.ends_with("escaped")),
        "an upload escaped"
    );
    assert!(tree(&dir.path().join("data/staging")).is_empty());
    // The server still serves, and eve may still upload a plain bot.
    assert_eq!(server.submit(&eve, &bot_folder(dir.path(), "eve")).0, 0);
}

#[test]
fn a_server_killed_mid_event_comes_back_with_everything() {
    let dir = tempfile::tempdir().unwrap();
    let config = write_config(dir.path());
    let mut server = start(&config);
    let ann = server.entrant("ann");
    assert_eq!(server.submit(&ann, &bot_folder(dir.path(), "ann")).0, 0);
    assert_eq!(server.wait(&ann, 1, None)["status"], "admitted");
    let (_, before) = server.me(&ann);
    let (_, pack) = server.download(&ann, 1);
    let unused = server.invite();
    server.child.kill().unwrap(); // SIGKILL
    server.child.wait().unwrap();
    let again = start(&server.config);
    // The active version is built and checked again (its built copy went with the server).
    assert_eq!(again.wait(&ann, 1, None)["status"], "admitted");
    assert_eq!(again.me(&ann), (200, before));
    assert_eq!(again.download(&ann, 1), (200, pack));
    assert_eq!(again.sign_up("bo", Some(&unused)).0, 201);
    assert_eq!(
        again
            .submit(&ann, &bot_folder(dir.path(), "ann"))
            .1
            .split(':')
            .next(),
        Some("version 2 uploaded")
    );
}

#[test]
fn the_pipeline_builds_and_checks_each_version_and_says_why_one_fails() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(&write_config(dir.path()));
    let eve = server.entrant("eve");
    // examples/entrants/eve answers the handshake wrong on purpose.
    let broken = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/entrants/eve");
    assert_eq!(server.submit(&eve, &broken).0, 0);
    let v = server.wait(&eve, 1, None);
    assert_eq!(v["status"], "failed");
    let reason = v["reason"].as_str().unwrap();
    assert!(reason.starts_with("FAIL "), "{reason}");
    let report = server.report(&eve, 1);
    let text = report["report"].as_str().unwrap();
    assert!(
        text.contains("| eve |") && text.contains("left out"),
        "{text}"
    );
    assert!(text.contains("> quads"), "the lines exchanged: {text}");
    assert!(
        !text.contains(&dir.path().display().to_string()),
        "the server's folders show: {text}"
    );
    // A build that fails: its status code and the end of its log.
    let bad = bot_folder(&dir.path().join("b"), "eve");
    let manifest = std::fs::read_to_string(bad.join("bot.toml")).unwrap();
    std::fs::write(
        bad.join("bot.toml"),
        format!("{manifest}build = \"echo compiling; echo oops >&2; exit 3\"\n"),
    )
    .unwrap();
    assert_eq!(server.submit(&eve, &bad).0, 0);
    let v = server.wait(&eve, 2, None);
    assert_eq!(v["status"], "failed");
    assert!(
        v["reason"]
            .as_str()
            .unwrap()
            .starts_with("build failed: exit status 3"),
        "{v}"
    );
    let log = server.report(&eve, 2)["build_log"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(log.contains("compiling") && log.contains("oops"), "{log}");
    // And a good version after them is admitted: the ladder will use it.
    assert_eq!(
        server
            .submit(&eve, &bot_folder(&dir.path().join("c"), "eve"))
            .0,
        0
    );
    assert_eq!(server.wait(&eve, 3, None)["status"], "admitted");
    // Another entrant cannot read eve's report.
    let ann = server.entrant("ann");
    let url = format!("{}/api/versions/1/report", server.url);
    assert_eq!(call(with_token(ureq::get(&url), &ann), None).0, 404);
}

#[test]
fn a_check_cut_off_by_a_kill_runs_again_once_then_fails() {
    let dir = tempfile::tempdir().unwrap();
    let config = write_config(dir.path());
    let mut server = start(&config);
    let ann = server.entrant("ann");
    let slow = bot_folder(dir.path(), "ann");
    let manifest = std::fs::read_to_string(slow.join("bot.toml")).unwrap();
    // A build that never ends by itself: the server is killed while it runs.
    std::fs::write(
        slow.join("bot.toml"),
        format!("{manifest}build = \"sleep 600\"\n"),
    )
    .unwrap();
    assert_eq!(server.submit(&ann, &slow).0, 0);
    for round in 1..=2 {
        let v = server.wait(&ann, 1, Some("queued"));
        assert_eq!(v["status"], "checking", "round {round}: {v}");
        server.child.kill().unwrap();
        server.child.wait().unwrap();
        server = start(&config);
    }
    let v = server.wait(&ann, 1, None);
    assert_eq!(v["status"], "failed");
    assert_eq!(
        v["reason"],
        "the server stopped twice while checking this version: upload it again"
    );
}

#[test]
fn the_ladder_plays_every_pair_in_turn_and_rates_them_with_intervals() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(&write_config(dir.path()));
    let names = ["ann", "bob", "cy"];
    for name in names {
        let token = server.entrant(name);
        assert_eq!(server.submit(&token, &bot_folder(dir.path(), name)).0, 0);
        assert_eq!(server.wait(&token, 1, None)["status"], "admitted");
    }
    // A version that fails its check never plays.
    let eve = server.entrant("eve");
    let broken = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/entrants/eve");
    assert_eq!(server.submit(&eve, &broken).0, 0);
    assert_eq!(server.wait(&eve, 1, None)["status"], "failed");
    // Once cy (checked last) has played 4 games, it has met both others: a newcomer meets
    // everyone before any pair meets again.
    let url = format!("{}/api/leaderboard?each=4&wait=100", server.url);
    let (code, board) = call(ureq::get(&url), None);
    assert_eq!(code, 200, "{board}");
    assert!(board["games"].as_u64().unwrap() >= 6, "{board}");
    let rows = board["rows"].as_array().unwrap();
    let mut listed: Vec<&str> = rows.iter().map(|r| r["name"].as_str().unwrap()).collect();
    listed.sort();
    assert_eq!(listed, names);
    let count = |r: &Value, k: &str| r[k].as_u64().unwrap();
    for r in rows {
        assert_eq!(
            count(r, "wins") + count(r, "draws") + count(r, "losses"),
            count(r, "games")
        );
        let (elo, low, high) = (
            r["elo"].as_f64().unwrap(),
            r["elo_low"].as_f64(),
            r["elo_high"].as_f64(),
        );
        assert!(
            low.map_or(true, |l| l <= elo) && high.map_or(true, |h| elo <= h),
            "{r}"
        );
    }
    let total: u64 = rows.iter().map(|r| count(r, "games")).sum();
    assert_eq!(total, 2 * board["games"].as_u64().unwrap());
    assert_eq!(
        rows.iter().map(|r| count(r, "wins")).sum::<u64>(),
        rows.iter().map(|r| count(r, "losses")).sum::<u64>()
    );
    // Every pair has met (the exact order of meetings is the scheduler's unit test).
    let pairs = board["pairs"].as_array().unwrap();
    assert_eq!(pairs.len(), 3, "{board}");
    assert!(pairs.iter().all(|p| count(p, "games") >= 2), "{board}");
}
