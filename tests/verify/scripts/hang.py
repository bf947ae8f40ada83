"""Never steps: it hangs (after spawning a sleeping child that must die with it)."""
import subprocess
import sys
import time

child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
if len(sys.argv) > 1:
    with open(sys.argv[1], "w") as handle:
        handle.write(str(child.pid))
print("hanging", flush=True)
while True:
    time.sleep(0.05)  # HANG-LINE
