FROM registry.access.redhat.com/ubi9/ubi:9.4
RUN yum install -y httpd && yum clean all
RUN yum -y install epel-release-9 \
    && yum -y install nginx \
    && yum clean all
RUN dnf install -y python3 python3-pip && dnf clean all
RUN dnf -y --setopt=install_weak_deps=False install git-2.43.5 make && dnf clean all
FROM registry.access.redhat.com/ubi9/ubi-minimal:9.4
RUN microdnf install -y nginx && microdnf clean all
RUN microdnf -y install shadow-utils-4.9 tar && microdnf clean all
USER 1001
CMD ["nginx", "-g", "daemon off;"]
