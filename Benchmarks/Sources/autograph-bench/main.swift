import PDFCore
print("hello")
