"""The sample generators' code; the texts they read are data files in ``sample_data/texts/``.

Run through the scripts next to this package (``make_samples.py``, ``make_import_samples.py``,
``make_labelled_sample.py``); ``tests/sample_data/test_generators.py`` regenerates every shipped file into a
temporary folder and compares it byte for byte.
"""
