#!/usr/bin/env python3
"""A gRPC server for apiexplorer's tests (grpcio): routeguide.proto's services on 127.0.0.1.

    grpc_test_server.py [--port N] [--tls CERT KEY] [--client-ca CA] [--no-reflection]

Compiles routeguide.proto (beside this file) with grpc_tools.protoc into a temporary folder,
serves (port 0: a free one), prints `PORT <n>` and runs until its standard input closes (the test
process that started it ended) or it is killed.
"""
import argparse, base64, os, shutil, sys, tempfile, threading, time
from concurrent import futures

import grpc
from grpc_tools import protoc
from grpc_reflection.v1alpha import reflection
from grpc_status import rpc_status
from google.protobuf import any_pb2, duration_pb2
from google.rpc import code_pb2, error_details_pb2, status_pb2

HERE = os.path.dirname(os.path.abspath(__file__))


def compile_proto(folder):
    include = os.path.join(os.path.dirname(protoc.__file__), "_proto")
    status = protoc.main(["protoc", f"-I{HERE}", f"-I{include}", f"--python_out={folder}", f"--grpc_python_out={folder}", os.path.join(HERE, "routeguide.proto")])
    if status != 0:
        sys.exit(f"grpc_tools.protoc failed with {status}")
    sys.path.insert(0, folder)


def packed(message):
    detail = any_pb2.Any()
    detail.Pack(message)
    return detail


def details_for(code_name, text):
    """A google.rpc.Status for the code, with the details a real server would add to it."""
    code = code_pb2.Code.Value(code_name)
    details = [packed(error_details_pb2.ErrorInfo(reason="PROBE_" + code_name, domain="probe.test", metadata={"text": text}))]
    if code_name == "INVALID_ARGUMENT":
        details.append(packed(error_details_pb2.BadRequest(field_violations=[
            error_details_pb2.BadRequest.FieldViolation(field="text", description="must not be empty"),
            error_details_pb2.BadRequest.FieldViolation(field="count", description="must be positive"),
        ])))
    if code_name in ("RESOURCE_EXHAUSTED", "UNAVAILABLE"):
        details.append(packed(error_details_pb2.RetryInfo(retry_delay=duration_pb2.Duration(seconds=2, nanos=500000000))))
        details.append(packed(error_details_pb2.QuotaFailure(violations=[error_details_pb2.QuotaFailure.Violation(subject="project:probe", description="daily limit")])))
    if code_name == "FAILED_PRECONDITION":
        details.append(packed(error_details_pb2.PreconditionFailure(violations=[error_details_pb2.PreconditionFailure.Violation(type="TOS", subject="probe.test", description="terms not accepted")])))
    if code_name == "NOT_FOUND":
        details.append(packed(error_details_pb2.ResourceInfo(resource_type="feature", resource_name=text, owner="probe", description="no such feature")))
    if code_name == "INTERNAL":
        details.append(packed(error_details_pb2.DebugInfo(stack_entries=["probe.py:10", "probe.py:20"], detail="boom")))
        details.append(packed(error_details_pb2.Help(links=[error_details_pb2.Help.Link(description="docs", url="https://probe.test/help")])))
        details.append(packed(error_details_pb2.LocalizedMessage(locale="fr-FR", message="échec")))
        details.append(packed(error_details_pb2.RequestInfo(request_id="r-1", serving_data="probe")))
    return status_pb2.Status(code=code, message=text or code_name.lower(), details=details)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--tls", nargs=2, metavar=("CERT", "KEY"))
    parser.add_argument("--client-ca")
    parser.add_argument("--no-reflection", action="store_true")
    options = parser.parse_args()

    folder = tempfile.mkdtemp(prefix="apiexplorer-grpc-")
    compile_proto(folder)
    import routeguide_pb2 as pb
    import routeguide_pb2_grpc as rpc

    def echo_metadata(context):
        found = {}
        for key, value in context.invocation_metadata():
            found[key] = base64.b64encode(value).decode() if key.endswith("-bin") else value
        return found

    def reply_for(request, context, index=0):
        reply = pb.EchoReply(text=request.text, metadata=echo_metadata(context), index=index)
        remaining = context.time_remaining()
        # Without a deadline grpcio reports a practically infinite time.
        reply.deadline_remaining = -1 if remaining is None or remaining > 1e9 else remaining
        if request.reply_bytes > 0:
            reply.padding = b"p" * request.reply_bytes
        reply.at.GetCurrentTime()
        return reply

    class Failure(grpc.Status):
        def __init__(self, status, extra):
            self.code = status.code
            self.details = status.details
            self.trailing_metadata = tuple(status.trailing_metadata) + tuple(extra)

    def trailers(context):
        return [("x-trailer", "done")] + [("x-trailer-" + key, value) for key, value in context.invocation_metadata() if key.startswith("x-")]

    class Probe(rpc.ProbeServicer):
        def Echo(self, request, context):
            if request.compress:
                context.set_compression(grpc.Compression.Gzip)
            context.send_initial_metadata([("x-echo-" + key, value) for key, value in context.invocation_metadata() if key.startswith("x-")])
            if request.sleep_ms:
                time.sleep(request.sleep_ms / 1000)
            if request.fail_with:
                # abort_with_status replaces the trailing metadata: the echo goes in with the details.
                context.abort_with_status(Failure(rpc_status.to_status(details_for(request.fail_with, request.text)), trailers(context)))
            context.set_trailing_metadata(trailers(context))
            return reply_for(request, context)

        def Stream(self, request, context):
            if request.compress:
                context.set_compression(grpc.Compression.Gzip)
            index = 0
            while context.is_active() and (request.count == 0 or index < request.count):
                yield reply_for(request, context, index)
                index += 1
                if request.interval_ms:
                    time.sleep(request.interval_ms / 1000)
            if request.fail_with:
                context.abort_with_status(rpc_status.to_status(details_for(request.fail_with, request.text)))

    class RouteGuide(rpc.RouteGuideServicer):
        def GetFeature(self, point, context):
            return pb.Feature(name=f"feature at {point.latitude},{point.longitude}" if point.latitude else "", location=point)

        def ListFeatures(self, rectangle, context):
            for latitude in range(rectangle.lo.latitude, rectangle.hi.latitude + 1):
                yield pb.Feature(name=f"feature {latitude}", location=pb.Point(latitude=latitude, longitude=rectangle.lo.longitude))

        def RecordRoute(self, points, context):
            count = 0
            distance = 0
            previous = None
            for point in points:
                count += 1
                if previous is not None:
                    distance += abs(point.latitude - previous.latitude) + abs(point.longitude - previous.longitude)
                previous = point
            return pb.RouteSummary(point_count=count, feature_count=count, distance=distance)

        def RouteChat(self, notes, context):
            for note in notes:
                yield pb.RouteNote(location=note.location, message="echo: " + note.message)

    server = grpc.server(futures.ThreadPoolExecutor(max_workers=16))
    rpc.add_RouteGuideServicer_to_server(RouteGuide(), server)
    rpc.add_ProbeServicer_to_server(Probe(), server)
    if not options.no_reflection:
        names = (pb.DESCRIPTOR.services_by_name["RouteGuide"].full_name, pb.DESCRIPTOR.services_by_name["Probe"].full_name, reflection.SERVICE_NAME)
        reflection.enable_server_reflection(names, server)
    address = f"127.0.0.1:{options.port}"
    if options.tls:
        certificate, key = (open(path, "rb").read() for path in options.tls)
        roots = open(options.client_ca, "rb").read() if options.client_ca else None
        credentials = grpc.ssl_server_credentials([(key, certificate)], root_certificates=roots, require_client_auth=roots is not None)
        port = server.add_secure_port(address, credentials)
    else:
        port = server.add_insecure_port(address)
    server.start()
    print(f"PORT {port}", flush=True)

    # The test process holds our standard input open; when it ends, so do we.
    def watch_stdin():
        sys.stdin.buffer.read()
        server.stop(0)
        shutil.rmtree(folder, ignore_errors=True)
        os._exit(0)

    threading.Thread(target=watch_stdin, daemon=True).start()
    server.wait_for_termination()


if __name__ == "__main__":
    main()
