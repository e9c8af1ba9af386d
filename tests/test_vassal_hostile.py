"""Hostile VASSAL files, made at run time: each must end in one line on stderr, exit 2, nothing written."""

from __future__ import annotations

import io
import os
import struct
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from pbem.cli import main
from pbem.formats.vassal.obfuscation import obfuscate, Obfuscation
from pbem.model.errors import PbemError

SAVE_TEXT = "begin_save\x1b\x1bPLAYER\tsecret\tAlice\tRed\x1bend_save"


def obfuscated(text: str, key: int = 0x5A) -> bytes:
    return obfuscate(text.encode("utf-8"), Obfuscation("obfuscated", key, "lower"))


def zip_bytes(members: dict[str, bytes], stored: bool = False) -> bytes:
    method = zipfile.ZIP_STORED if stored else zipfile.ZIP_DEFLATED
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", method) as archive:
        for name, content in members.items():
            archive.writestr(zipfile.ZipInfo(name), content, compress_type=method)
    return out.getvalue()


def check_refused(tmp_path: Path, capsys, name: str, data: bytes, *extra: str, verb: str = "info",
                  expect: str = "") -> str:
    path = tmp_path / name
    path.write_bytes(data)
    before = sorted(tmp_path.rglob("*"))
    with pytest.raises(SystemExit) as exit_info:
        main(["vassal", verb, str(path), *extra])
    out, err = capsys.readouterr()
    assert exit_info.value.code == 2
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("error: ")
    assert "Traceback" not in err
    assert expect.lower() in err.lower()
    assert sorted(tmp_path.rglob("*")) == before  # nothing written
    return err


def test_a_good_save_is_read(tmp_path, capsys):
    path = tmp_path / "good.vsav"
    path.write_bytes(zip_bytes({"savedGame": obfuscated(SAVE_TEXT)}))
    with pytest.raises(SystemExit) as exit_info:
        main(["vassal", "info", str(path), "--format", "json"])
    out, _ = capsys.readouterr()
    assert exit_info.value.code == 0
    assert '"Alice"' in out and "secret" not in out


def test_zip_bomb_by_declared_size(tmp_path, capsys):
    data = bytearray(zip_bytes({"savedGame": obfuscated(SAVE_TEXT)}))
    # Forge the sizes a bomb would declare: 300 MiB in the central directory and local header.
    central = data.rfind(b"PK\x01\x02")
    struct.pack_into("<I", data, central + 24, 300 * 1024 * 1024)
    struct.pack_into("<I", data, 22, 300 * 1024 * 1024)
    check_refused(tmp_path, capsys, "bomb-size.vsav", bytes(data), expect="zip bomb")


def test_zip_bomb_by_ratio(tmp_path, capsys):
    data = zip_bytes({"savedGame": b"!VCSK00" + b"0" * (4 * 1024 * 1024)})
    check_refused(tmp_path, capsys, "bomb-ratio.vsav", data, expect="zip bomb")


def test_zip_lying_about_its_size(tmp_path, capsys):
    data = bytearray(zip_bytes({"savedGame": obfuscated(SAVE_TEXT * 20)}))
    central = data.rfind(b"PK\x01\x02")
    struct.pack_into("<I", data, central + 24, 10)  # says 10 bytes, inflates to far more
    check_refused(tmp_path, capsys, "liar.vsav", bytes(data))


@pytest.mark.parametrize("member", ["../evil", "a/../../evil", "/etc/passwd", "C:/evil", "\\\\server\\evil"])
def test_member_names_leaving_the_archive(tmp_path, capsys, member):
    data = zip_bytes({"savedGame": obfuscated(SAVE_TEXT), member: b"x"})
    check_refused(tmp_path, capsys, "names.vsav", data, expect="leaves the archive")


DTD_XML = b"""<?xml version="1.0"?>
<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]>
<VASSAL.build.GameModule name="&lol2;"/>"""
EXTERNAL_XML = b"""<?xml version="1.0"?>
<!DOCTYPE data [<!ENTITY x SYSTEM "http://127.0.0.1:9/secret">]>
<data version="1"><version>&x;</version></data>"""


def test_build_file_with_entities(tmp_path, capsys):
    check_refused(tmp_path, capsys, "buildFile.xml", DTD_XML, expect="DOCTYPE")


def test_module_zip_with_entities(tmp_path, capsys):
    check_refused(tmp_path, capsys, "evil.vmod", zip_bytes({"buildFile.xml": DTD_XML}), expect="DOCTYPE")


def test_save_metadata_with_external_entity(tmp_path, capsys):
    data = zip_bytes({"savedGame": obfuscated(SAVE_TEXT), "savedata": EXTERNAL_XML})
    check_refused(tmp_path, capsys, "evil.vsav", data, expect="DOCTYPE")


def test_doctype_after_a_comment(tmp_path, capsys):
    data = b"<?xml version='1.0'?><!-- hi --><!DOCTYPE x SYSTEM 'file:///etc/passwd'><x/>"
    check_refused(tmp_path, capsys, "buildFile", data, expect="DOCTYPE")


def test_xml_nested_absurdly_deep(tmp_path, capsys):
    data = b"<VASSAL.build.GameModule>" + b"<a>" * 5000 + b"</a>" * 5000 + b"</VASSAL.build.GameModule>"
    check_refused(tmp_path, capsys, "buildFile.xml", data, expect="malformed XML")


def test_truncated_obfuscation(tmp_path, capsys):
    data = obfuscated(SAVE_TEXT)[:-1]
    check_refused(tmp_path, capsys, "truncated.vsav", zip_bytes({"savedGame": data}), expect="odd number")


def test_garbled_obfuscation(tmp_path, capsys):
    data = bytearray(obfuscated(SAVE_TEXT))
    data[20] = ord("z")
    check_refused(tmp_path, capsys, "garbled.vsav", zip_bytes({"savedGame": bytes(data)}), expect="non-hex")


def test_obfuscation_hiding_bytes_that_are_not_text(tmp_path, capsys):
    data = b"!VCSK00" + b"ff" * 10
    check_refused(tmp_path, capsys, "binary.vsav", zip_bytes({"savedGame": data}), expect="UTF-8")


def test_obfuscation_without_a_key(tmp_path, capsys):
    check_refused(tmp_path, capsys, "nokey.vsav", zip_bytes({"savedGame": b"!VCSK"}), expect="key")


def test_commands_nested_absurdly_deep(tmp_path, capsys):
    text = "begin_save\x1b" + "\\" * 5000 + "\x1bx\x1bend_save"
    check_refused(tmp_path, capsys, "deep.vsav", zip_bytes({"savedGame": obfuscated(text)}), expect="nested")


def test_commands_nested_deep_through_quotes(tmp_path, capsys):
    # Quoting forces the literal, level-by-level reading: it must stop too.
    inner = "x"
    for _ in range(400):
        inner = "'\\\x1b" + inner.replace("\x1b", "\\\x1b") + "'"
    text = "begin_save\x1b" + inner + "\x1bend_save"
    check_refused(tmp_path, capsys, "deepq.vsav", zip_bytes({"savedGame": obfuscated(text)}))


def test_absurd_trait_chain(tmp_path, capsys):
    # 1,050 links, each nested one level deeper than the last: more than any piece has.
    chain = "".join("mark;x" + "\\" * level + "\t" for level in range(1_050)) + "piece;;;;p"
    text = "begin_save\x1b\x1b+/1/" + chain.replace("/", "\\/") + "/null;0;0\x1bend_save"
    check_refused(tmp_path, capsys, "chain.vsav", zip_bytes({"savedGame": obfuscated(text)}, stored=True),
                  expect="chain")


def test_not_a_vassal_file(tmp_path, capsys):
    check_refused(tmp_path, capsys, "junk.vsav", b"\x00\x01junk", expect="not a VASSAL")


def test_zip_without_save_or_build_file(tmp_path, capsys):
    check_refused(tmp_path, capsys, "empty.vmod", zip_bytes({"readme.txt": b"hi"}), expect="not a VASSAL")


def test_damaged_zip(tmp_path, capsys):
    data = zip_bytes({"savedGame": obfuscated(SAVE_TEXT)})
    check_refused(tmp_path, capsys, "cut.vsav", data[: len(data) // 2] + b"PK\x05\x06" + b"\0" * 18)


def test_log_of_a_hostile_module(tmp_path, capsys):
    save = tmp_path / "ok.vsav"
    save.write_bytes(zip_bytes({"savedGame": obfuscated(SAVE_TEXT)}))
    module = tmp_path / "evil.vmod"
    module.write_bytes(zip_bytes({"buildFile.xml": DTD_XML}))
    before = sorted(tmp_path.rglob("*"))
    with pytest.raises(SystemExit) as exit_info:
        main(["vassal", "log", str(save), "--vassal-module", str(module)])
    out, err = capsys.readouterr()
    assert exit_info.value.code == 2 and out == "" and err.count("\n") == 1 and "DOCTYPE" in err
    assert sorted(tmp_path.rglob("*")) == before


# --- no DTD or external entity is ever loaded, wherever the DOCTYPE stands -------------------------------

# 70 KB of processing instructions before the DOCTYPE: past any pre-scan of the prolog.
LONG_PROLOG = b"<?xml version='1.0'?>" + b"<?pad x?>" * 8_000


def external_xml(target: Path, root: bytes) -> dict[str, bytes]:
    """The ways a DOCTYPE can name ``target``: external subset, parameter entity, external general entity."""
    return {
        "subset": LONG_PROLOG + b"<!DOCTYPE x SYSTEM '" + bytes(target) + b"'>" + root,
        "parameter": LONG_PROLOG + b"<!DOCTYPE x [<!ENTITY % p SYSTEM '" + bytes(target) + b"'> %p;]>" + root,
        "general": LONG_PROLOG + b"<!DOCTYPE x [<!ENTITY e SYSTEM '" + bytes(target) + b"'>]>" + root,
    }


def run_cli(*args: str) -> subprocess.CompletedProcess:
    # A separate process: a parser that opened the FIFO would block forever, and the timeout catches it.
    return subprocess.run([sys.executable, "-m", "pbem", *args], capture_output=True, text=True, timeout=20,
                          stdin=subprocess.DEVNULL)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
@pytest.mark.parametrize("how", ["subset", "parameter", "general"])
@pytest.mark.parametrize("where", ["buildFile.xml", "savedata"])
def test_doctype_naming_a_fifo_is_never_opened(tmp_path, how, where):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    xml = external_xml(fifo, b"<VASSAL.build.GameModule>&e;</VASSAL.build.GameModule>" if how == "general"
                       else b"<VASSAL.build.GameModule/>")[how]
    if where == "savedata":
        target = tmp_path / "evil.vsav"
        target.write_bytes(zip_bytes({"savedGame": obfuscated(SAVE_TEXT), "savedata": xml}))
    else:
        target = tmp_path / where
        target.write_bytes(xml)
    result = run_cli("vassal", "info", str(target))
    assert result.returncode == 2, result.stderr
    assert result.stdout == "" and result.stderr.count("\n") == 1 and "DOCTYPE" in result.stderr


@pytest.mark.parametrize("how", ["subset", "parameter", "general"])
def test_doctype_naming_a_local_file_reads_nothing(tmp_path, capsys, how):
    secret = tmp_path / "secret.dtd"
    secret.write_bytes(b'<!ENTITY secret "TOPSECRET-42"><!ENTITY e "TOPSECRET-42">')
    xml = external_xml(secret, b"<data version='1'><version>&secret;&e;</version></data>")[how]
    data = zip_bytes({"savedGame": obfuscated(SAVE_TEXT), "savedata": xml})
    err = check_refused(tmp_path, capsys, "evil.vsav", data, expect="DOCTYPE")
    assert "TOPSECRET" not in err


def test_a_parser_that_would_load_the_dtd_is_still_stopped(tmp_path, monkeypatch):
    # Second lock: even a parser told to load DTDs and resolve entities reaches no file.
    from lxml import etree

    from pbem.formats.vassal import xmlsafe

    secret = tmp_path / "secret.dtd"
    secret.write_bytes(b'<!ENTITY secret "TOPSECRET-42">')

    def careless() -> etree.XMLParser:
        parser = etree.XMLParser(load_dtd=True, resolve_entities=True, no_network=False)
        parser.resolvers.add(xmlsafe._RefuseEveryLoad())
        return parser

    monkeypatch.setattr(xmlsafe, "_parser", careless)
    xml = external_xml(secret, b"<x>&secret;</x>")["parameter"]
    with pytest.raises(PbemError, match="DOCTYPE"):
        xmlsafe.parse_xml(xml, "evil.xml")


# --- zip features nobody should send: encryption, a version needed beyond what is read ----------------

def with_header_field(data: bytes, where: str, offset: int, value: int, mask: bool = False) -> bytes:
    """``data`` with a 16-bit field of the first member's local header or central entry changed."""
    out = bytearray(data)
    base = 0 if where == "local" else out.rfind(b"PK\x01\x02")
    old = struct.unpack_from("<H", out, base + offset)[0]
    struct.pack_into("<H", out, base + offset, old | value if mask else value)
    return bytes(out)


# Offsets in a local header / central entry: version needed 4 / 6, flags 6 / 8.
ZIP_FEATURES = {
    "encrypted-local": ("local", 6, 0x1, "encrypted"),
    "encrypted-central": ("central", 8, 0x1, "encrypted"),
    "strong-encryption-local": ("local", 6, 0x40, "encrypted"),
    "strong-encryption-central": ("central", 8, 0x40, "encrypted"),
    "version-9.9-local": ("local", 4, 99, "version 9.9"),
    "version-9.9-central": ("central", 6, 99, "version 9.9"),
}


@pytest.mark.parametrize("feature", list(ZIP_FEATURES))
@pytest.mark.parametrize("kind", ["vsav", "vmod"])
def test_zip_member_with_a_feature_not_read(tmp_path, capsys, feature, kind):
    where, offset, value, expect = ZIP_FEATURES[feature]
    member = {"vsav": {"savedGame": obfuscated(SAVE_TEXT)},
              "vmod": {"buildFile.xml": b"<VASSAL.build.GameModule name='m'/>"}}[kind]
    data = with_header_field(zip_bytes(member), where, offset, value, mask="version" not in feature)
    check_refused(tmp_path, capsys, f"feature.{kind}", data, expect=expect)


# --- bounded in time and memory (issue 11): big hostile files generated here, never committed -----------

def quoted_chain_save(pieces: int, links: int) -> bytes:
    """A save of pieces whose trait chains are quoted at every level: read level by level, each costs the
    chain's length times its depth (28 s and 1.1 GB for 1.9 MB before)."""
    from pbem.formats.vassal.commands import encode_tree
    from pbem.formats.vassal.sequence import join, join_chain

    types = join_chain(["'mark;x"] * links + ["piece;;;;p'"])
    states = join_chain(["'s"] * links + ["Main;1;2'"])
    commands = ["+/" + join([str(number), types, states], "/") for number in range(pieces)]
    return encode_tree(["begin_save", "", [""] + commands, "end_save"]).encode("utf-8")


def deeply_quoted_tree(depth: int, size: int) -> bytes:
    from pbem.formats.vassal.commands import encode_tree

    tree: str | list = "'" + "x" * size + "'"
    for _ in range(depth):
        tree = ["'a", tree]
    return encode_tree(["begin_save", tree, "end_save"]).encode("utf-8")


@pytest.mark.parametrize("kind", ["chains", "tree"])
def test_quoted_nesting_reads_in_linear_time(tmp_path, capsys, kind):
    import time

    plain = quoted_chain_save(4, 990) if kind == "chains" else deeply_quoted_tree(190, 1_900_000)
    assert len(plain) > 1_900_000
    path = tmp_path / "quoted.vsav"
    path.write_bytes(zip_bytes({"savedGame": obfuscated(plain.decode("utf-8"))}, stored=True))
    start = time.process_time()
    for verb in ("info", "log"):
        with pytest.raises(SystemExit) as exit_info:
            main(["vassal", verb, str(path), "--format", "json"])
        assert exit_info.value.code == 0, capsys.readouterr().err
    capsys.readouterr()
    assert time.process_time() - start < 10  # a fraction of a second now; minutes and gigabytes before


def test_saved_game_inflating_past_the_limit_is_refused_before_inflating(tmp_path, capsys):
    from pbem.formats.vassal.savefile import MAX_SAVED_GAME_BYTES

    # 61 times larger once inflated: under the zip-bomb ratio, over what any save holds.
    chunk = obfuscated("begin_save\x1b" + "x" * 1000 + "\x1bend_save")
    body = (chunk * (MAX_SAVED_GAME_BYTES // len(chunk) + 2))[:MAX_SAVED_GAME_BYTES + 2]
    data = zip_bytes({"savedGame": body})
    assert len(data) < 8 * 1024 * 1024
    check_refused(tmp_path, capsys, "big.vsav", data, expect="more than")


def test_bare_stream_past_the_limit_is_refused(tmp_path, capsys):
    from pbem.formats.vassal.modulefile import MAX_TEXT_BYTES

    check_refused(tmp_path, capsys, "big.vlog", b"!VCSK00" + b"00" * (MAX_TEXT_BYTES // 2), expect="larger than")


def test_too_many_commands(tmp_path, capsys):
    from pbem.formats.vassal.savefile import MAX_COMMANDS

    text = "begin_save" + "\x1bx" * (MAX_COMMANDS + 1) + "\x1bend_save"
    check_refused(tmp_path, capsys, "many.vsav", zip_bytes({"savedGame": obfuscated(text)}), expect="commands")


def test_prototypes_that_explode(tmp_path, capsys):
    # Each prototype uses the next one twice: 2**40 traits if expanded naively.
    definitions = "".join(
        f'<VASSAL.build.module.PrototypeDefinition name="P{n}">+/null/prototype;P{n + 1}\tprototype;P{n + 1}'
        f'\\\tpiece;;;;\\\\\t/\t\\\t\\\\\t</VASSAL.build.module.PrototypeDefinition>' for n in range(40))
    xml = (f'<VASSAL.build.GameModule name="bomb">{definitions}'
           '<VASSAL.build.widget.PieceSlot entryName="boom" gpid="1">+/null/prototype;P0\tpiece;;;;x/\tnull;0;0'
           '</VASSAL.build.widget.PieceSlot></VASSAL.build.GameModule>').encode()
    check_refused(tmp_path, capsys, "buildFile.xml", xml, expect="prototypes expand")


def change_storm(changes: int, link: str) -> bytes:
    """One piece of 999 traits, then ``changes`` steps each changing its first trait's state."""
    from pbem.formats.vassal.sequence import join, join_chain

    types = join_chain([link] * 999 + ["piece;;;;p"])
    text = ("begin_save\x1b+/1/" + join(["1", types, "Main;1;2"], "/")[2:] + "\x1bend_save"
            + "".join(f"\x1bLOG\tD/1/{number}/{number - 1}" for number in range(changes)))
    return zip_bytes({"savedGame": obfuscated(text)})


def test_many_changes_of_a_long_piece_are_read_in_time(tmp_path, capsys):
    import time

    path = tmp_path / "storm.vlog"
    path.write_bytes(change_storm(30_000, "mark;x"))
    start = time.process_time()
    with pytest.raises(SystemExit) as exit_info:
        main(["vassal", "log", str(path)])
    assert exit_info.value.code == 0
    assert capsys.readouterr().out.count("change p (mark 29998->29999)") == 1
    assert time.process_time() - start < 10  # each change once cost the whole chain: 100 s for 99,000


def test_changes_renaming_a_piece_of_999_labels_are_refused_in_time(tmp_path, capsys):
    import time

    data = change_storm(5_000, "label;;;;;;;;;;;$pieceName$ ($label$)")  # refused after ~1,000
    start = time.process_time()  # CPU time: the machine may be busy with other work
    check_refused(tmp_path, capsys, "labels.vlog", data, verb="log", expect="trait states")
    assert time.process_time() - start < 10


def test_save_metadata_past_the_limit_is_refused(tmp_path, capsys):
    from pbem.formats.vassal.savefile import MAX_METADATA_BYTES

    data = zip_bytes({"savedGame": obfuscated(SAVE_TEXT), "savedata": b" " * (MAX_METADATA_BYTES + 1)}, stored=True)
    check_refused(tmp_path, capsys, "meta.vsav", data, expect="savedata holds")
