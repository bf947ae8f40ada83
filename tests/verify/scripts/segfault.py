"""Dies of SIGSEGV before stepping (as a broken extension would)."""
import os
import signal

print("about to crash", flush=True)
os.kill(os.getpid(), signal.SIGSEGV)  # CRASH-LINE
