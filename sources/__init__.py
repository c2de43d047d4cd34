"""Source records: DOI, arXiv and GitHub look-ups over httpx, cached on disk."""
