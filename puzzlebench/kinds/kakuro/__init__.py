"""The kakuro kind's folder: its data type, checker, native layout, drawing, symmetries, generator and ``kind.py``."""
