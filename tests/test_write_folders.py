"""The commands that write files (``write``, ``nexmark --output``) write only into folders of their
own, and refuse every other before touching anything.

Each refusal runs the command's main function in this process (``in_process``), which fails the
test if the command goes on to start Spark: a folder on this machine is checked before Spark
starts. Each asserts the exit status 2, the one-line message (the flag, the path, what is there,
the way on) and that every file found before is there after, byte for byte. The folders come from
real Spark jobs: a batch job's dataset, another streaming query's file sink, and finished writes
of the command itself (in a child process, once per module: the module's tests share one worker).
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import uuid
from pathlib import Path

import pytest
from pyspark.sql import SparkSession

from helpers.support import CLI, RunInProcess, StartedSpark, run_child
from spark_random_strings import read_random_strings
from spark_random_strings.offsets.definition_store import DEFINITION_FILE
from spark_random_strings.write.contents import NEXMARK_FILE, STRINGS_FILE
from spark_random_strings.write.files import HadoopFiles, LocalFiles
from spark_random_strings.write.folder import check_folder
from spark_random_strings.write.records import CHECKPOINT_RECORD, OUTPUT_RECORD, PENDING
from spark_random_strings.write.request import FolderRefused

WRITE = ["write", "--total-rows", "100", "--seed", "1", "--max-length", "8"]
NEXMARK = ["nexmark", "--num-events", "100"]

# One worker runs every test here, so that each finished write below is made once, not once on
# each worker that runs a test of it (13 s of CPU each).
pytestmark = [pytest.mark.slow, pytest.mark.processes, pytest.mark.xdist_group("write_folders")]


def snapshot(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder``, hidden ones too, with its bytes."""
    return {str(f.relative_to(folder)): f.read_bytes() for f in sorted(folder.rglob("*")) if f.is_file()}


def refused(in_process: RunInProcess, folder: Path, *args: str) -> str:
    """Run the command, which must refuse at once (status 2) and leave ``folder`` as it was; return
    the message after ``error:``."""
    before = snapshot(folder) if folder.exists() else None
    done = in_process(*args)
    assert done.returncode == 2, done
    assert done.stdout == ""
    (error,) = done.stderr.strip().splitlines()
    prog = f"spark-random-strings {'nexmark' if '--nexmark' in args else args[0]}"
    assert error.startswith(f"{prog}: error: ") and error.endswith(f" (see {prog} --help)"), error
    assert (snapshot(folder) if folder.exists() else None) == before, "a refusal touches nothing"
    return error[len(f"{prog}: error: ") : -len(f" (see {prog} --help)")]


def run_write(*args: str) -> subprocess.CompletedProcess[str]:
    done = run_child([*CLI, *args])
    assert done.returncode == 0, done.stderr[-3000:]
    return done


@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A finished ``write`` of 100 rows, its checkpoint in the folder (the default)."""
    output = tmp_path_factory.mktemp("finished") / "strings"
    run_write(*WRITE, "--output", str(output))
    return output


@pytest.fixture(scope="module")
def finished_apart(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A finished ``write`` of 100 rows whose checkpoint is in a folder of its own."""
    base = tmp_path_factory.mktemp("apart")
    output, checkpoint = base / "strings", base / "checkpoint"
    run_write(*WRITE, "--output", str(output), "--checkpoint", str(checkpoint))
    return output, checkpoint


def copy_of(folder: Path, tmp_path: Path) -> Path:
    copy = tmp_path / folder.name
    shutil.copytree(folder, copy)
    return copy


def test_a_finished_write_keeps_a_record_in_its_folder_and_in_its_checkpoint_and_none_of_its_files(
    finished: Path, finished_apart: tuple[Path, Path]
) -> None:
    assert json.loads((finished / OUTPUT_RECORD).read_text()) == {
        "version": 1,
        "checkpoint": "_checkpoint",
        "format": "parquet",
        "what": "random strings",
    }
    assert json.loads((finished / "_checkpoint" / CHECKPOINT_RECORD).read_text()) == {
        "version": 1,
        "output": "..",
    }
    output, checkpoint = finished_apart
    assert json.loads((output / OUTPUT_RECORD).read_text())["checkpoint"] == str(checkpoint)
    assert json.loads((checkpoint / CHECKPOINT_RECORD).read_text()) == {"version": 1, "output": str(output)}
    # The records of the files its query made go once the run ends: each is in the sink's log.
    assert not (finished / PENDING).exists()
    assert STRINGS_FILE == DEFINITION_FILE


@pytest.mark.parametrize(
    "command",
    [WRITE, NEXMARK, ["write", "--nexmark", "--num-events", "100"]],
    ids=["write", "nexmark --output", "write --nexmark"],
)
def test_a_batch_jobs_parquet_dataset_is_refused_and_kept_byte_for_byte(
    command: list[str], spark: SparkSession, tmp_path: Path, in_process: RunInProcess
) -> None:
    existing = tmp_path / "existing"
    spark.range(1000).write.parquet(str(existing))
    spark.range(500).write.mode("append").parquet(str(existing))
    data = sorted(f.name for f in existing.iterdir() if f.name.startswith("part-"))
    hidden = [f.name for f in existing.iterdir() if f.name.startswith(".")]  # Hadoop's .crc checksums
    message = refused(in_process, existing, *command, "--output", str(existing))
    shown = ", ".join(data[:3]) + (f" and {len(data) - 3} more" if len(data) > 3 else "")
    assert message.startswith(
        f"argument --output: {existing} holds {len(data) + 1} files and 0 folders, besides {len(hidden)} "
        "hidden "
        f"files: {len(data)} data files named as Spark's file writers name theirs ({shown}); _SUCCESS, and "
        "no "
    )
    assert message.endswith(
        "and no record that a spark-random-strings write made it. A write never adds to, or deletes from, a "
        "folder it did not make. Give --output a new folder (one that does not exist yet, or is empty); or, "
        "to "
        "finish an earlier write, its folder and the flags of the "
        f"{'write' if command[0] == 'write' and '--nexmark' not in command else 'nexmark --output'} run "
        "that made it."
    )


def test_another_streaming_querys_output_is_refused_naming_its_sink_log(
    spark: SparkSession, tmp_path: Path, in_process: RunInProcess
) -> None:
    other, checkpoint = tmp_path / "other", tmp_path / "other-checkpoint"
    query = (
        read_random_strings(spark, seed=5, total_rows=300, num_partitions=3)
        .writeStream.format("json")
        .option("path", str(other))
        .option("checkpointLocation", str(checkpoint))
        .trigger(availableNow=True)
        .start()
    )
    query.awaitTermination()
    message = refused(in_process, other, *WRITE, "--output", str(other))
    assert message.startswith(
        f"argument --output: {other} holds 3 files and 1 folder, besides 3 hidden files: 3 "
    )
    assert (
        "; _spark_metadata, the log of a streaming query's file sink, listing 3 files in 1 batch, and no "
        in message
    )
    # Its checkpoint, given as this write's, is another query's: refused, with the output new.
    message = refused(
        in_process, checkpoint, *WRITE, "--output", str(tmp_path / "new"), "--checkpoint", str(checkpoint)
    )
    assert message == (
        f"argument --checkpoint: {checkpoint} holds a streaming query's checkpoint (batches planned up to 0, "
        "committed up to 0), and no record that a spark-random-strings write made it: it is another query's. "
        "Give --checkpoint a new folder (one that does not exist yet, or is empty), or leave it out."
    )
    assert not (tmp_path / "new").exists()


def test_a_file_where_a_folder_must_be_is_refused_naming_the_flag(
    tmp_path: Path, in_process: RunInProcess
) -> None:
    a_file = tmp_path / "notes.txt"
    a_file.write_text("mine")
    way_on = (
        "Give --output a new folder (one that does not exist yet, or is empty); or, to finish an earlier "
        "write, its folder and the flags of the write run that made it."
    )
    assert refused(in_process, tmp_path, *WRITE, "--output", str(a_file)) == (
        f"argument --output: {a_file} is a file, and the write makes a folder there. {way_on}"
    )
    under = a_file / "out"
    assert refused(in_process, tmp_path, *WRITE, "--output", str(under)) == (
        f"argument --output: {under} lies under {a_file}, which is a file, and the write makes a folder "
        "there. "
        f"{way_on}"
    )
    assert refused(
        in_process, tmp_path, *WRITE, "--output", str(tmp_path / "new"), "--checkpoint", str(a_file)
    ) == (
        f"argument --checkpoint: {a_file} is a file, and the write makes a folder there. Give --checkpoint a "
        "folder that does not exist yet, or is empty; or leave it out (the default is _checkpoint in the "
        "output "
        "folder)."
    )
    log = tmp_path / "with-log"
    log.mkdir()
    (log / "_spark_metadata").write_text("")
    assert refused(in_process, tmp_path, *WRITE, "--output", str(log)) == (
        f"argument --output: {log / '_spark_metadata'} is a file where the file sink's log must be a folder. "
        f"{way_on}"
    )
    assert not (tmp_path / "new").exists()


def test_a_checkpoint_that_would_hold_its_output_is_refused(tmp_path: Path, in_process: RunInProcess) -> None:
    output = tmp_path / "out"
    assert refused(in_process, tmp_path, *WRITE, "--output", str(output), "--checkpoint", str(tmp_path)) == (
        f"argument --checkpoint: {tmp_path} would hold the output folder {output}: the query's checkpoint "
        "and "
        "its files need folders of their own. Leave --checkpoint out (the default is _checkpoint in the "
        "output "
        "folder), or give a folder outside --output."
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["write", "--total-rows", "100", "--seed", "2", "--max-length", "8"],
            "argument --output: {output} holds a write of another stream than these flags make. The options "
            "of "
            "this query contradict the stream stored in its checkpoint ({output}/_checkpoint/sources/0/"
            "random-strings-source.json): seed: the checkpoint has 1, the query sets 2.",
        ),
        (
            [*WRITE, "--format", "json"],
            "argument --format: {output} holds a write in parquet, and this run writes json: a folder holds "
            "one "
            "format. Finish it with --format parquet, or give --output a new folder.",
        ),
        (
            [*WRITE, "--checkpoint", "{elsewhere}"],
            "argument --checkpoint: {output} is the folder of a write whose checkpoint is "
            "{output}/_checkpoint, "
            "not {elsewhere}. Finish it with --checkpoint left out, as the run that made it; or give "
            "--output a "
            "new folder.",
        ),
        (
            [*WRITE, "--engine", "python"],
            "argument --engine: the checkpoint {output}/_checkpoint is read by the jar's source, and "
            "--engine "
            "python reads the Python data source, which keeps its stream elsewhere. Finish the write with "
            "--engine jvm (or auto), as the run that made it.",
        ),
        (
            ["write", "--nexmark", "--num-events", "100"],
            "argument --output: {output} holds a write of random strings, and this run writes Nexmark "
            "events. "
            "Give --output a new folder (one that does not exist yet, or is empty); or, to finish an earlier "
            "write, its folder and the flags of the nexmark --output run that made it.",
        ),
    ],
    ids=["another seed", "another format", "another checkpoint", "another engine", "another source"],
)
def test_a_write_of_other_flags_into_a_finished_write_is_refused_before_spark(
    args: list[str], message: str, finished: Path, tmp_path: Path, in_process: RunInProcess
) -> None:
    output = copy_of(finished, tmp_path)
    elsewhere = tmp_path / "elsewhere"
    got = refused(in_process, output, *(a.format(elsewhere=elsewhere) for a in args), "--output", str(output))
    assert got.startswith(message.format(output=output, elsewhere=elsewhere))
    assert not elsewhere.exists()


def test_the_same_flags_into_a_finished_write_pass_the_checks_before_spark(
    finished: Path, tmp_path: Path, in_process: RunInProcess
) -> None:
    output = copy_of(finished, tmp_path)
    before = snapshot(output)
    with pytest.raises(StartedSpark):  # the folder is the write's own: main goes on to start Spark
        in_process(*WRITE, "--output", str(output))
    assert snapshot(output) == before


def test_a_checkpoint_whose_folder_is_gone_or_another_is_refused(
    finished_apart: tuple[Path, Path], tmp_path: Path, in_process: RunInProcess
) -> None:
    output, checkpoint = finished_apart
    checkpoint = copy_of(checkpoint, tmp_path)
    gone = output  # the write's folder, which the checkpoint's record names, is not the copy's
    other = tmp_path / "another"
    assert refused(
        in_process, checkpoint, *WRITE, "--output", str(other), "--checkpoint", str(checkpoint)
    ) == (
        f"argument --checkpoint: {checkpoint} is the checkpoint of the write to {gone}, not to {other}. "
        "Finish "
        f"that write with --output {gone}, or give a new --checkpoint."
    )
    record = checkpoint / CHECKPOINT_RECORD
    record.write_text(json.dumps({"version": 1, "output": str(other)}))
    assert refused(
        in_process, checkpoint, *WRITE, "--output", str(other), "--checkpoint", str(checkpoint)
    ) == (
        f"argument --output: {other} is gone, and the checkpoint {checkpoint} holds a streaming query's "
        "checkpoint (batches planned up to 0, committed up to 0) of the write to it: a run now would write "
        "only "
        "what comes after them, and the folder would not hold all the rows. To write it again from the "
        "start, "
        "delete the checkpoint or give a new --checkpoint."
    )


def test_a_sink_log_that_its_checkpoint_does_not_account_for_is_refused(
    finished: Path, tmp_path: Path, in_process: RunInProcess
) -> None:
    output = copy_of(finished, tmp_path)
    shutil.rmtree(output / "_spark_metadata")
    assert refused(in_process, output, *WRITE, "--output", str(output)) == (
        f"argument --output: the checkpoint {output}/_checkpoint has committed batches up to 0, and the file "
        f"sink's log in {output} (_spark_metadata) lists no batch: the rows of the batches it lacks are not "
        "in "
        "the folder, and a run would not write them again. Give --output a new folder and a new checkpoint "
        "to "
        "write it again from the start."
    )


def test_a_release_before_the_records_is_adopted_and_anything_else_in_it_refused(
    finished: Path, tmp_path: Path
) -> None:
    """A folder as 0.1.0 to 0.6.0 left it (no records) is the write's own; with a file of the user's
    beside it, it is not."""
    output = copy_of(finished, tmp_path)
    shutil.rmtree(output / "_spark_random_strings")
    (output / "_checkpoint" / CHECKPOINT_RECORD).unlink()
    request = _request(output)
    claim = check_folder(LocalFiles(), request)
    assert claim.adopted
    assert [path for path, _ in claim.records] == [
        str(output / OUTPUT_RECORD),
        str(output / "_checkpoint" / CHECKPOINT_RECORD),
    ]
    (output / "notes.txt").write_text("mine")
    with pytest.raises(FolderRefused, match=r"notes\.txt"):
        check_folder(LocalFiles(), request)


def test_the_checks_read_a_folder_alike_through_hadoops_file_system(
    finished: Path, spark: SparkSession, tmp_path: Path
) -> None:
    """The write checks a folder on another store through Hadoop's FileSystem: the same checks,
    the same answers (here on this machine's files, through file: URIs)."""
    hadoop = HadoopFiles(spark)
    output = copy_of(finished, tmp_path)
    local_claim, hadoop_claim = (
        check_folder(LocalFiles(), _request(output)),
        check_folder(hadoop, _request(output)),
    )
    assert (hadoop_claim.output, hadoop_claim.checkpoint) == (f"file:{output}", f"file:{output}/_checkpoint")
    assert hadoop_claim.records == local_claim.records == ()
    shutil.rmtree(output / "_spark_metadata")
    messages = []
    for files in (LocalFiles(), hadoop):
        with pytest.raises(FolderRefused) as refusal:
            check_folder(files, _request(output))
        messages.append(str(refusal.value).replace("file:", ""))
    assert messages[0] == messages[1]
    fresh = tmp_path / "fresh"
    claim = check_folder(hadoop, _request(fresh))
    assert [path for path, _ in claim.records] == [
        f"file:{fresh}/{OUTPUT_RECORD}",
        f"file:{fresh}/_checkpoint/{CHECKPOINT_RECORD}",
    ]


def test_a_user_file_named_as_sparks_in_the_writes_own_folder_stays_and_the_writes_unfinished_ones_go(
    finished: Path, tmp_path: Path
) -> None:
    output = copy_of(finished, tmp_path)
    committed = sorted(f.name for f in output.iterdir() if f.name.startswith("part-"))
    named = re.fullmatch(r"part-\d{5}-[0-9a-f-]{36}-(c\d{3}\..+)", committed[0])
    assert named, committed[0]
    suffix = named.group(1)
    # What a killed batch leaves: files the query recorded before creating them, an empty one and a
    # cut-off one; and a file of the user's, named alike, which it did not make.
    unfinished = [f"part-0000{i}-{uuid.uuid4()}-{suffix}" for i in range(2)]
    (output / unfinished[0]).touch()
    (output / unfinished[1]).write_bytes((output / committed[0]).read_bytes()[:100])
    for name in unfinished:
        (output / PENDING).mkdir(parents=True, exist_ok=True)
        (output / PENDING / name).touch()
    users = f"part-00009-{uuid.uuid4()}-{suffix}"
    (output / users).write_bytes(b"mine")
    # The copy's log names the original folder's files: point it here, as a moved folder would be.
    for entry in (output / "_spark_metadata").iterdir():
        if entry.name.isdigit():
            entry.write_text(entry.read_text().replace(str(finished), str(output)))
        elif entry.name.endswith(".crc"):
            entry.unlink()
    done = run_write(*WRITE, "--output", str(output))
    lines = done.stdout.strip().splitlines()
    assert (
        lines[0] == f"removed 2 unfinished file(s) from {output}: a batch stopped before its commit made them"
    )
    assert lines[1] == (
        f"kept 1 file(s) in {output} that the file sink's log does not list and this write did not make "
        f"({users}): Spark's readers skip them, other readers read them"
    )
    assert lines[-1].startswith(f"wrote 100 rows to {output} as parquet (0 in this run, ")
    assert sorted(f.name for f in output.iterdir() if f.name.startswith("part-")) == sorted(
        [*committed, users]
    )
    assert (output / users).read_bytes() == b"mine"
    assert not (output / PENDING).exists()


def _request(output: Path):  # type: ignore[no-untyped-def]
    """The request of ``WRITE`` into ``output``, as the command makes it."""
    import argparse

    from spark_random_strings.cli import build_parser
    from spark_random_strings.cli.write import write_request

    args = build_parser().parse_args([*WRITE, "--output", str(output)])
    assert isinstance(args, argparse.Namespace)
    return write_request(args)


def test_the_nexmark_writes_record_names_its_events(tmp_path: Path) -> None:
    output = tmp_path / "events"
    run_write(*NEXMARK, "--output", str(output), "--format", "json")
    assert json.loads((output / OUTPUT_RECORD).read_text())["what"] == "Nexmark events"
    assert (output / "_checkpoint" / "sources" / "0" / NEXMARK_FILE).is_file()


def test_a_session_whose_driver_lacks_the_jar_records_nothing_and_leaves_its_protocol_setting_alone(
    spark: SparkSession,
) -> None:
    from types import SimpleNamespace

    from spark_random_strings.engine.session import driver_loads
    from spark_random_strings.write.command import (
        PROTOCOL_SETTING,
        RECORDING_PROTOCOL,
        _recording_files,
    )

    assert driver_loads(spark, RECORDING_PROTOCOL)
    assert not driver_loads(spark, "io.github.sparkrandomstrings.write.NoSuchProtocol")
    with _recording_files(spark) as recording:
        assert recording and spark.conf.get(PROTOCOL_SETTING) == RECORDING_PROTOCOL
    assert spark.conf.get(PROTOCOL_SETTING, None) != RECORDING_PROTOCOL
    # A session without a JVM of its own (Spark Connect's) cannot load it either: its setting stays.
    settings: dict[str, str] = {}
    remote = SimpleNamespace(conf=SimpleNamespace(get=settings.get, set=settings.__setitem__))
    with _recording_files(remote) as recording:  # type: ignore[arg-type]
        assert not recording and settings == {}


def test_a_session_setting_held_for_a_block_returns_to_its_value_or_to_unset_even_after_an_error(
    spark: SparkSession,
) -> None:
    from spark_random_strings.engine.session import session_setting

    unset, held = "spark.sql.streaming.stateStore.minDeltasForSnapshot", "spark.sql.shuffle.partitions"
    assert spark.conf.get(unset, None) is None  # unset: its default (10) is not set
    before = spark.conf.get(held)
    with pytest.raises(KeyError), session_setting(spark, unset, "3"), session_setting(spark, held, "7"):
        assert (spark.conf.get(unset), spark.conf.get(held)) == ("3", "7")
        raise KeyError("inside")
    assert spark.conf.get(unset, None) is None
    assert spark.conf.get(held) == before
