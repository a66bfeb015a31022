print("apiexplorer")
