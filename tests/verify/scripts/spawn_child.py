"""Spawns a sleeping child, records its pid, and ends without stepping."""
import subprocess
import sys

child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
with open(sys.argv[1], "w") as handle:
    handle.write(str(child.pid))
print("spawned", child.pid)
