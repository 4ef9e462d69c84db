"""The shape every round-trip script shares: Python writes files into a scratch directory, the
gtests named by `suite` (in the ember_tests binary given as argv[1]) read them and write their
own there, and Python checks those."""
import os
import subprocess
import sys
import tempfile


def round_trip(suite, python_writes, python_reads):
    with tempfile.TemporaryDirectory() as d:
        written = python_writes(d)
        env = dict(os.environ, EMBER_INTEROP_DIR=d)
        run = subprocess.run([sys.argv[1], "--gtest_filter=" + suite + ".*"], env=env)
        if run.returncode != 0:
            sys.exit("ember's " + suite + " tests failed")
        python_reads(d, written)
