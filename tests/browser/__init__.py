"""Browser tests of the built book, its 3D scenes, the chapters in JupyterLab and the PDF."""
