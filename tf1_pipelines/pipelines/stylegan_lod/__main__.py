"""The original's command line: ``python -m tf1_pipelines.pipelines.stylegan_lod
create_from_images TFRECORD_DIR IMAGE_DIR --shuffle 1`` (also ``extract`` and ``compare``)."""
import sys

from tf1_pipelines.pipelines.stylegan_lod.dataset_tool import main

if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
