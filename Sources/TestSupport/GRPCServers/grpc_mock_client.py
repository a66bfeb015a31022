#!/usr/bin/env python3
"""grpcio as the client of the mock's gRPC server (GRPCMockTests/PythonClientTests): the four kinds of
call, a status with details, and its reflection client. Prints one line per check.

    grpc_mock_client.py PORT
"""
import sys, grpc
from grpc_status import rpc_status
from grpc_reflection.v1alpha.proto_reflection_descriptor_database import ProtoReflectionDescriptorDatabase

port = sys.argv[1]
channel = grpc.insecure_channel("127.0.0.1:" + port)
plain = lambda b: b
def book(title):
    data = title.encode()
    return b"\x0a" + bytes([len(data)]) + data
unary = channel.unary_unary("/shop.Shop/GetBook", request_serializer=plain, response_deserializer=plain)
reply, call = unary.with_call(book("which"), metadata=[("x-from", "python")])
print("unary", reply[2:].decode(), dict(call.initial_metadata()).get("x-mock"), dict(call.trailing_metadata()).get("x-done"))
stream = channel.unary_stream("/shop.Shop/ListBooks", request_serializer=plain, response_deserializer=plain)
print("stream", ",".join(r[2:].decode() for r in stream(b"")))
add = channel.stream_unary("/shop.Shop/AddBooks", request_serializer=plain, response_deserializer=plain)
print("client", add(iter([book("x"), book("y")]))[2:].decode())
chat = channel.stream_stream("/shop.Shop/Chat", request_serializer=plain, response_deserializer=plain)
print("bidi", ",".join(r[2:].decode() for r in chat(iter([book("hi")]))))
fail = channel.unary_unary("/shop.Shop/Fail", request_serializer=plain, response_deserializer=plain)
try:
    fail(b"")
except grpc.RpcError as error:
    status = rpc_status.from_call(error)
    print("status", error.code().name, error.details(), len(status.details), status.details[0].type_url)
database = ProtoReflectionDescriptorDatabase(channel)
print("services", ",".join(sorted(database.get_services())))
print("file", database.FindFileContainingSymbol("shop.Shop").name)
