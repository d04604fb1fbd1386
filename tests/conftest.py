import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))  # coursekit, catalogue
os.environ.setdefault("MPLBACKEND", "Agg")
