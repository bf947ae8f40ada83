"""Reads stdin: it must see end-of-file at once, never wait for a terminal."""
import sys

data = sys.stdin.read()
print("read", len(data), "bytes")
answer = input("continue? ")  # STDIN-LINE
