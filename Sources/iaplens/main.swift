print("iaplens")
