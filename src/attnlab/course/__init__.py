"""Instructor tooling: release the student notebooks, grade submissions, edit notebooks as text."""
