# The submitted notebook is a hard link to the course's solution notebook, and a second hard link to it
# sits in a subfolder of the submission (link count 3).
CASE = {"cls": "links", "kind": "course", "notebook_link": "solutions/01_weighted_averages/01_weighted_averages.ipynb",
        "links": {"backup/copy.ipynb": "solutions/01_weighted_averages/01_weighted_averages.ipynb"},
        "scores": True}
