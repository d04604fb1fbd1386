"""The grader's stages, one module each, in the order a submission goes through them:
:mod:`.collect`, :mod:`.read`, :mod:`.run` (with :mod:`.fonts`), :mod:`.measure`, :mod:`.judge`,
then recording (:mod:`attnlab.course.records`) and :mod:`.render`. The hand-offs between them are
in :mod:`.handoff`; :mod:`attnlab.course.grading` drives one submission through them.
"""
