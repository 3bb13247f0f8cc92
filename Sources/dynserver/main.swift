print("dynserver")
