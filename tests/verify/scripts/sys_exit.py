"""Leaves through sys.exit before any optimizer exists."""
import sys

print("leaving early")
sys.exit(3)
