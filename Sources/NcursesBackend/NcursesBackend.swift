import CNcursesw
