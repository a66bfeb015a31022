#!/usr/bin/env python3
"""The Python side of `apiexplorer-bench grpc`: N unary calls (probe Echo) over one grpcio channel,
one after the other. Prints `CALLS <n> SECONDS <s>`.

    grpc_bench_client.py PORT N
"""
import os, sys, tempfile, time

import grpc
from grpc_tools import protoc

HERE = os.path.dirname(os.path.abspath(__file__))
folder = tempfile.mkdtemp(prefix="apiexplorer-grpc-bench-")
include = os.path.join(os.path.dirname(protoc.__file__), "_proto")
if protoc.main(["protoc", f"-I{HERE}", f"-I{include}", f"--python_out={folder}", f"--grpc_python_out={folder}", os.path.join(HERE, "routeguide.proto")]) != 0:
    sys.exit("grpc_tools.protoc failed")
sys.path.insert(0, folder)
import routeguide_pb2 as pb
import routeguide_pb2_grpc as rpc

port, count = int(sys.argv[1]), int(sys.argv[2])
with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
    stub = rpc.ProbeStub(channel)
    stub.Echo(pb.EchoRequest(text="warm-up"))
    started = time.perf_counter()
    for index in range(count):
        stub.Echo(pb.EchoRequest(text=f"call {index}"))
    elapsed = time.perf_counter() - started
print(f"CALLS {count} SECONDS {elapsed:.6f}")
