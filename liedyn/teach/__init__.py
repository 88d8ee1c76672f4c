"""The book's tools: the exercise checkers (:mod:`~liedyn.teach.exercises`),
matplotlib drawings (:mod:`~liedyn.teach.plot`) and offline 3D scenes
(:mod:`~liedyn.teach.scene`). The dynamics never import them.
"""
