print("dynclient")
