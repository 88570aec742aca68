"""A command witness against a real RFC 3161 time-stamp authority, run locally with ``openssl ts``:
every signed checkpoint gets a time-stamp token the log's writer cannot forge, and the tokens verify
against the authority's certificate (and fail for an altered checkpoint)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from sandbox import Sandbox, load_policy
from sandbox.audit import AuditLog
from sandbox.storage import InMemoryStorage

#: The witness command: each checkpoint on stdin is kept and time-stamped by the authority.
WITNESS = """
import json, subprocess, sys
from pathlib import Path
folder, config = Path(sys.argv[1]), sys.argv[2]
line = sys.stdin.buffer.read()
seq = json.loads(line)["seq"]
data, query, token = (folder / f"{seq}.{ext}" for ext in ("checkpoint", "tsq", "tsr"))
data.write_bytes(line)
subprocess.run(["openssl", "ts", "-query", "-data", str(data), "-sha256", "-cert", "-out", str(query)], check=True)
subprocess.run(["openssl", "ts", "-reply", "-config", config, "-queryfile", str(query), "-out", str(token)],
               check=True, capture_output=True)
"""

TSA_CONFIG = """[ tsa ]
default_tsa = tsa_config
[ tsa_config ]
dir = {dir}
serial = $dir/serial
signer_cert = $dir/tsa.crt
signer_key = $dir/tsa.key
signer_digest = sha256
default_policy = 1.2.3.4.1
digests = sha256
accuracy = secs:1
ess_cert_id_alg = sha256
ess_cert_id_chain = no
tsa_name = no
"""


def openssl(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["openssl", *args], cwd=cwd, capture_output=True, text=True, check=False)  # noqa: S603, S607


def authority(folder: Path) -> Path:
    """A certificate authority and a time-stamping authority it certified; returns the TSA's config."""
    folder.mkdir()
    ec = ("-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes")
    steps = [
        ("req", "-x509", *ec, "-keyout", "ca.key", "-out", "ca.crt", "-subj", "/CN=Test CA", "-days", "2",
         "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign"),
        ("req", "-new", *ec, "-keyout", "tsa.key", "-out", "tsa.csr", "-subj", "/CN=Test TSA"),
        ("x509", "-req", "-in", "tsa.csr", "-CA", "ca.crt", "-CAkey", "ca.key", "-CAcreateserial",
         "-out", "tsa.crt", "-days", "2", "-extfile", "ext.cnf"),
    ]  # fmt: skip
    (folder / "ext.cnf").write_text(
        "extendedKeyUsage=critical,timeStamping\nbasicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature\n"
    )
    for step in steps:
        done = openssl(*step, cwd=folder)
        assert done.returncode == 0, done.stderr
    (folder / "serial").write_text("01\n")
    config = folder / "tsa.cnf"
    config.write_text(TSA_CONFIG.format(dir=folder))
    return config


def test_checkpoints_time_stamped_by_an_rfc3161_authority(tmp_path: Path) -> None:
    if shutil.which("openssl") is None:
        if os.environ.get("CI"):
            pytest.fail("openssl is required in CI")
        pytest.skip("openssl not installed")
    tsa = authority(tmp_path / "tsa")
    tokens = tmp_path / "tokens"
    tokens.mkdir()
    script = tmp_path / "witness.py"
    script.write_text(WITNESS)
    log_path = tmp_path / "audit.jsonl"
    log = AuditLog.open(log_path, checkpoint_every=6, witness_command=f"{sys.executable} {script} {tokens} {tsa}")
    sandbox = Sandbox(policy=load_policy("default"), storage=InMemoryStorage(), audit=log)
    for n in range(8):
        assert not sandbox.execute({"command": "create", "path": f"/memories/n{n}.md", "file_text": "x"}).is_error
    sandbox.close()
    log.close()
    checkpoints = [line for line in log_path.read_bytes().splitlines(keepends=True) if b'"checkpoint"' in line]
    assert len(checkpoints) >= 3
    for line in checkpoints:
        seq = json.loads(line)["seq"]
        data = tokens / f"{seq}.checkpoint"
        assert data.read_bytes() == line  # the authority stamped exactly the log's checkpoint
        verified = openssl("ts", "-verify", "-data", str(data), "-in", f"{seq}.tsr", "-CAfile", str(tsa.parent / "ca.crt"),
                           cwd=tokens)  # fmt: skip
        assert verified.returncode == 0 and "Verification: OK" in verified.stdout, verified.stderr
    forged = tokens / "forged.checkpoint"
    forged.write_bytes(checkpoints[0].replace(b'"seq"', b'"seq" '))
    seq = json.loads(checkpoints[0])["seq"]
    refused = openssl("ts", "-verify", "-data", str(forged), "-in", f"{seq}.tsr", "-CAfile", str(tsa.parent / "ca.crt"),
                      cwd=tokens)  # fmt: skip
    assert refused.returncode != 0 and "Verification: FAILED" in refused.stdout
