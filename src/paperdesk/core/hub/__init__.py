"""The Hugging Face Hub: the bounded HTTP client, checked records, completing papers, a day's
list, Today.
"""
