"""imageio 2 (<= 2.27) calls that today's imageio reads differently: an animated GIF's
``duration=`` in seconds with 10 frames per second and endless looping by default, and
``imread(as_gray=True)``: the table is :mod:`compat.imageio_legacy.removed`,
:mod:`compat.imageio_legacy.surface` declares the surface, :mod:`compat.imageio_legacy.uses`
finds the uses for ``compat check``."""
