#!/usr/bin/env python3
"""Runs a command until this script's standard input reaches its end.

    run_until_stdin_closes.py [--remove DIRECTORY] COMMAND [ARGUMENT …]

For the servers tests start and stop (Sources/PDFTestSupport/Certomancer.swift): the test process
holds the only write end of the pipe, so the command ends when the test closes it (stop()) or when
the test process ends, however it ends. Then the command gets SIGTERM, and SIGKILL if it is still
there five seconds later; DIRECTORY (the server's temporary files) is removed once it has ended.
When the command ends first, this script exits with its status.

A process that Foundation's Process starts on Linux inherits the signal mask of the thread that
started it, and a test's threads block nearly every signal (SIGTERM and SIGCHLD among them); the
command starts with none blocked, so that SIGTERM stops it.
"""
import os
import shutil
import signal
import subprocess
import sys
import threading

arguments = sys.argv[1:]
directory = None
if arguments[:1] == ["--remove"]:
    directory, arguments = arguments[1], arguments[2:]

signal.pthread_sigmask(signal.SIG_SETMASK, [])
child = subprocess.Popen(arguments, stdin=subprocess.DEVNULL)
done = threading.Event()


def watch():
    while os.read(0, 4096):
        pass
    child.terminate()
    try:
        child.wait(5)
    except subprocess.TimeoutExpired:
        child.kill()
        child.wait()
    if directory:
        shutil.rmtree(directory, ignore_errors=True)
    done.set()


threading.Thread(target=watch, daemon=True).start()
status = child.wait()
# Stopped by the watcher: let it finish removing the directory.
done.wait(1)
sys.exit(status)
