#!/usr/bin/env python3
"""routeguide.proto (beside this file) with its imports as a protoset, by grpc_tools.protoc.

    compile_protoset.py OUTPUT
"""
import os, sys
from grpc_tools import protoc

HERE = os.path.dirname(os.path.abspath(__file__))
include = os.path.join(os.path.dirname(protoc.__file__), "_proto")
sys.exit(protoc.main(["protoc", f"-I{HERE}", f"-I{include}", "--include_imports", f"--descriptor_set_out={sys.argv[1]}", os.path.join(HERE, "routeguide.proto")]))
