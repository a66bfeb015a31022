// LiveTransport module.
