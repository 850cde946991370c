"""Never answers: reads every query and says nothing."""
import sys

for line in sys.stdin:
    pass
