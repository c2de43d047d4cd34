"""The local sentence encoder: all-MiniLM-L6-v2 on onnxruntime.

Owns: ``model_files`` (finding and checking the pinned weights), ``onnx_graph`` (building the
fp32 graph), ``encode`` (tokenising, batching, the ``encode`` run). Conventions in docs/encoder.md.

May import: ``engine.runs``.
"""
