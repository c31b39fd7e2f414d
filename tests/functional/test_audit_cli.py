"""`vampire audit FILE [--json]` and `vampire replay FILE --text` on saved protocol games:
exit codes 0 (clean), 1 (a fault), 2 (unfinished or unchecked), 3 (nothing to
audit: a missing file, not a log); the JSON report; the replay in words, with the hands after the
seed reveal."""

from __future__ import annotations

import json
import re

import pytest

from engine.games.queen import hand_size
from tests.support.protocol import frames_of, saved_game, scratch_dir
from tui.cli import main


def write(name: str, data: bytes):
    path = scratch_dir("cli") / name
    path.write_bytes(data)
    return path


def audit(capsys, path, *flags):
    code = main(["audit", str(path), *flags])
    out, err = capsys.readouterr()
    return code, out, err


def test_a_clean_log_exits_0_with_a_summary(capsys):
    played = saved_game()
    code, out, err = audit(capsys, played.log)
    assert code == 0 and err == ""
    assert out.startswith("CLEAN:")
    for name in played.names:
        assert name in out
    assert "rounds played: 1" in out and "result:" in out
    assert "shuffles: 4 in 1 deck event, each recomputed from its author's seed" in out


def test_a_tampered_log_exits_1_as_a_fault_of_the_file_blaming_no_seat(capsys):
    played = saved_game()
    data = played.data
    move = next(f for f in frames_of(data) if f.entry.kind == "move")
    tampered = bytearray(data)
    tampered[move.end - 70] ^= 0x01  # inside the entry's own signature
    path = write("tampered.vtlog", bytes(tampered))
    code, out, err = audit(capsys, path)
    assert code == 1
    assert out.startswith(f"FAULT in {path}: the file was changed after it was signed, or damaged")
    assert f"entry {move.entry.seq}" in out and "does not verify" in out and "by seat" not in out
    code, out, _ = audit(capsys, path, "--json")
    report = json.loads(out)
    assert code == 1 and report["exit"] == 1 and report["status"] == "fault" and report["error"] is None
    fault = report["fault"]
    assert fault["seq"] == move.entry.seq and "signature" in fault["what"] and fault["evidence"]
    assert fault["kind"] == "file" and fault["seat"] is None and fault["name"] is None


def test_bytes_appended_after_the_end_entry_exit_1(capsys):
    played = saved_game()
    path = write("appended.vtlog", played.data + b"appended")
    code, out, _ = audit(capsys, path)
    assert code == 1 and out.startswith("FAULT") and "8 bytes follow the end entry" in out
    assert "CLEAN" not in out


def test_a_log_cut_after_a_whole_frame_mid_game_exits_2(capsys):
    played = saved_game()
    frames = frames_of(played.data)
    cut = next(f for f in frames if f.entry.kind == "move").end
    path = write("cut.vtlog", played.data[:cut])
    code, out, _ = audit(capsys, path)
    assert code == 2 and out.startswith("NO FAULT, BUT NOT FULLY CHECKED") and "UNFINISHED" in out
    code, out, _ = audit(capsys, path, "--json")
    report = json.loads(out)
    assert report["exit"] == 2 and report["status"] == "incomplete" and report["fault"] is None
    assert report["finished"] is False and report["events_unchecked"] == [0] and not report["torn_tail_dropped"]


def test_a_log_whose_last_round_seeds_were_never_revealed_exits_2_and_says_so(capsys):
    played = saved_game()
    frames = frames_of(played.data)
    first_seed = next(f for f in frames if f.entry.kind == "seed-reveal")
    path = write("no-seeds.vtlog", played.data[: first_seed.start])
    code, out, _ = audit(capsys, path)
    assert code == 2
    # In words: which deck, why its seeds are missing, and what was checked instead.
    assert (
        "NOT RECOMPUTED: deck event 0 (the shared queen deck): its seeds were not all revealed (the log "
        "stops before the seed reveal, or a seat left without revealing its key), so its cards were "
        "checked only by the proofs that came with them"
    ) in out
    assert "UNCHECKED" not in out and "never had their seeds" not in out
    report = json.loads(audit(capsys, path, "--json")[1])
    assert report["events_unchecked"] == [0] and report["events_checked"] == 0 and report["fault"] is None


def test_a_torn_last_frame_exits_2_and_says_it_was_dropped(capsys):
    played = saved_game()
    last = frames_of(played.data)[-1]
    path = write("torn.vtlog", played.data[: last.end - 5])
    code, out, _ = audit(capsys, path)
    assert code == 2 and "torn last frame" in out


def test_the_json_report_of_a_clean_log(capsys):
    played = saved_game()
    code, out, _ = audit(capsys, played.log, "--json")
    report = json.loads(out)
    assert code == 0 and report["exit"] == 0 and report["status"] == "clean" and report["fault"] is None
    host = played.game.host.table
    result = host.game.result(host.gstate)
    assert report["scores"] == list(result.scores) and report["winners"] == list(result.winners)
    assert [p["name"] for p in report["players"]] == played.names
    assert report["entries"] == len(host.entries) and report["finished"] and report["events_checked"] == 1


def test_a_missing_file_is_a_usage_error_with_exit_3_not_a_fault(capsys):
    path = scratch_dir("cli") / "missing.vtlog"
    code, out, err = audit(capsys, path)
    assert code == 3 and out == ""
    assert err == f"vampire: Cannot audit {path}: it cannot be read (No such file or directory).\n"
    code, out, err = audit(capsys, path, "--json")
    report = json.loads(out)
    assert code == 3 and err == "" and report["exit"] == 3 and report["status"] == "unusable"
    assert report["fault"] is None and "cannot be read" in report["error"]


def test_a_file_that_is_not_a_log_is_a_usage_error_with_exit_3(capsys):
    path = write("notes.txt", b"not a log at all\n")
    code, out, err = audit(capsys, path)
    assert code == 3 and out == "" and "is not a vampire-table log file" in err and "FAULT" not in err


def test_audit_help_documents_every_exit_code(capsys):
    with pytest.raises(SystemExit):
        main(["audit", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    for words in (
        "Exit 0:",
        "1: a fault",
        "2: no fault",
        "3: nothing checked",
        "missing or unreadable",
        "does not know",
    ):
        assert words in text


# --- replay ------------------------------------------------------------------------------------------


def replay(capsys, path) -> list[str]:
    assert main(["replay", str(path), "--text"]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    return out.splitlines()


def test_replay_prints_the_game_in_words_and_the_hands_after_the_seed_reveal(capsys):
    played = saved_game()
    lines = replay(capsys, played.log)
    text = "\n".join(lines)
    # Moves in words, with the players' names.
    assert re.search(r"\] \w+ leads (a|an|two|three|four|five|six|seven|eight|a pair of) ", text)
    assert re.search(r"\] \w+ (plays|passes)", text)
    assert "is drawn as dealer" in text and "wins the trick" in text
    # Every protocol step is a line, numbered by its entry.
    assert "shuffles event 0 (proven)" in text and "reveals a shuffle seed (event 0)" in text
    moves = sum(1 for e in played.entries if e.kind == "move")
    played_lines = [ln for ln in lines if re.search(r"\] \w+ (leads|plays|passes)", ln)]
    assert len(played_lines) >= moves
    # After the seed reveal, and only then, the hands.
    dealt = [i for i, ln in enumerate(lines) if "was dealt:" in ln]
    last_seed = max(i for i, ln in enumerate(lines) if "reveals a shuffle seed" in ln)
    assert dealt and min(dealt) > last_seed
    assert lines[-1].endswith("The host closes the table.")


def test_replay_shows_every_hand_as_it_was_dealt(capsys):
    played = saved_game()
    lines = replay(capsys, played.log)
    hands = {m.group(1): m.group(2).split() for ln in lines if (m := re.search(r"(\w+) was dealt: (.*)$", ln))}
    assert set(hands) == set(played.names)
    for i, name in enumerate(played.names):
        live = played.views[max(played.views)][i][1]  # the identities the seat decoded, live
        assert len(hands[name]) == hand_size(4)
        assert sorted(hands[name]) == sorted(c.split("-")[0] for c in live.values())
