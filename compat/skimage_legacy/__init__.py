"""scikit-image names and arguments that 0.13–0.16 code used and later releases removed
(``measure.compare_psnr/ssim/mse/nrmse``, ``color.rgb2grey``, ``draw.circle``,
``feature.register_translation``, ``multichannel=``, ...), with their old semantics:
the table is :mod:`compat.skimage_legacy.removed`, :mod:`compat.skimage_legacy.surface`
declares the surface, :mod:`compat.skimage_legacy.uses` finds the uses for ``compat check``."""
