//! Sign-up, uploads by the CLI and by hand, downloads, refusals, archives made by an
//! attacker's tools (Python's tarfile and zipfile), and a restart after SIGKILL.

use serde_json::{json, Value};

use crate::harness::*;

#[test]
fn entrants_sign_up_upload_and_download_their_versions() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(&write_config(dir.path()));
    let ann = server.entrant("ann");
    let (code, me) = server.me(&ann);
    assert_eq!(
        (code, me),
        (
            200,
            json!({ "name": "ann", "versions": [], "webhook": null })
        )
    );
    let folder = bot_folder(dir.path(), "ann");
    let (code, out, err) = server.submit(&ann, &folder);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("version 1 uploaded: 2 files, "), "{out}");
    // Checked before the next upload (a newer upload supersedes a version not yet checked).
    assert_eq!(server.wait(&ann, 1, None)["status"], "admitted");
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
            json!({"error": "give your token (Authorization: Bearer TOKEN) or log in"})
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
        (403, json!({"error": "only the host may do this"}))
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
    // A program the box can never show: /tmp is the box's own, empty at each start.
    std::fs::write(
        broken.join("bot.toml"),
        "name = \"bob\"\nauthor = \"B\"\ncommand = \"/tmp/bot --fast\"\n",
    )
    .unwrap();
    let (code, _, err) = server.submit(&bob, &broken);
    assert_eq!(code, 2);
    assert_eq!(
        err.trim(),
        "quads: the server refused the upload (HTTP 422): bot.toml:3: command: `/tmp/bot` runs a program under /tmp, which the entrant's box starts empty: run a file of the entrant's folder"
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
