<?xml version="1.0" encoding="UTF-8"?>
<!-- transform-namespace, request: claims v2 (urn:perflab:claims:v2) to ClaimServices' v1. The schemas differ in
     the namespace and in one element's name: v2's policyId is v1's policyNumber. -->
<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
                xmlns:cl="urn:perflab:claims:v2" exclude-result-prefixes="cl">
  <xsl:output method="xml" encoding="UTF-8" omit-xml-declaration="yes" indent="no"/>

  <xsl:template match="@*|node()">
    <xsl:copy><xsl:apply-templates select="@*|node()"/></xsl:copy>
  </xsl:template>

  <!-- copy the envelope's elements without carrying a v2 namespace declaration along -->
  <xsl:template match="*">
    <xsl:element name="{name()}" namespace="{namespace-uri()}"><xsl:apply-templates select="@*|node()"/></xsl:element>
  </xsl:template>

  <xsl:template match="cl:*">
    <xsl:element name="cs:{local-name()}" namespace="urn:perflab:claims:v1"><xsl:apply-templates select="@*|node()"/></xsl:element>
  </xsl:template>

  <xsl:template match="cl:policyId">
    <xsl:element name="cs:policyNumber" namespace="urn:perflab:claims:v1"><xsl:apply-templates select="@*|node()"/></xsl:element>
  </xsl:template>
</xsl:stylesheet>
